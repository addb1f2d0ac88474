import { groupMessages as messages } from '@outpost/contract/groups';
import type { GroupFilter } from '@outpost/contract/groups';
import type { Executor } from '../../lib/db';
import { isAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { canSeeSite, isSiteLimited } from '../../lib/scope';
import { findSiteName } from './groups.queries';

// Who may change a group (docs/product/device-sets.md#groups "Who may do what"), after the
// packages' owner-site model (docs/decisions/2026-11-26-package-owner-scope.md): a group is
// tenant-wide (site_id null) or owned by one site, whose devices alone it holds. Reading follows
// the scope (groups.queries inScopeOrShared); a tenant-wide group is created and changed by
// administrators of all sites only; a site's group by anyone who may see that site.

/** Whether the caller may change a group they can see. */
export function mayChange(ctx: RequestContext, group: { siteId: number | null }): boolean {
  return group.siteId === null ? isAdmin(ctx) && !isSiteLimited(ctx) : canSeeSite(ctx, group.siteId);
}

export function assertMayChange(ctx: RequestContext, group: { siteId: number | null }): void {
  if (!mayChange(ctx, group)) {
    throw forbidden(messages.tenantWideAdminOnly, 'GROUP_READ_ONLY');
  }
}

/**
 * The owner site of a new group or of a group moved: null (tenant-wide) needs an administrator of
 * all sites; a site must be of the caller's tenant and, for a site-limited caller, theirs. A
 * site-limited caller who names none gets their only site; with several they must choose.
 */
export async function ownerSite(
  ex: Executor,
  ctx: RequestContext,
  requested: number | null | undefined,
): Promise<number | null> {
  if (isSiteLimited(ctx)) {
    if (requested === undefined && ctx.siteIds.length === 1) {
      return ctx.siteIds[0]!;
    }
    if (requested === undefined) {
      throw badRequest(messages.chooseSite, 'SITE_REQUIRED');
    }
    if (requested === null) {
      throw forbidden(messages.tenantWideAdminOnly, 'GROUP_TENANT_WIDE_ADMIN_ONLY');
    }
    if (!canSeeSite(ctx, requested)) {
      throw forbidden(messages.siteOutsideScope, 'SITE_OUTSIDE_SCOPE');
    }
    return requested;
  }
  if (requested === undefined || requested === null) {
    if (!isAdmin(ctx)) {
      throw forbidden(messages.tenantWideAdminOnly, 'GROUP_TENANT_WIDE_ADMIN_ONLY');
    }
    return null;
  }
  if ((await findSiteName(ex, ctx, requested)) === null) {
    throw notFound(messages.siteNotFound, 'SITE_NOT_FOUND');
  }
  return requested;
}

/** A site-limited caller's filter names only their own sites. */
export function assertFilterInScope(ctx: RequestContext, filter: GroupFilter | null | undefined): void {
  for (const c of filter?.conditions ?? []) {
    if (c.field === 'site' && c.site_ids.some((id) => !canSeeSite(ctx, id))) {
      throw forbidden(messages.siteOutsideScope, 'SITE_OUTSIDE_SCOPE');
    }
  }
}
