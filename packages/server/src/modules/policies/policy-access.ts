import { policyMessages as messages } from '@outpost/contract/policies';
import type { PolicyCreateInput } from '@outpost/contract/policies';
import type { RequestContext } from '../../lib/context';
import { isAdmin } from '../../lib/context';
import type { Reader } from '../../lib/db';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import { findGroup, findPackage, findSite } from './policies.queries';
import type { PolicyRow } from './policies.queries';

// Who may manage a policy (docs/product/device-sets.md#automation-policies): a policy whose target
// is the whole tenant (the tenant, or a group no site owns) is for administrators of all sites;
// one targeting a site, or a group a site owns, for any member who sees that site, as deployments
// are (docs/product/administration.md#who-may-do-what). Another tenant's or site's records read
// as not found.

export type ResolvedTarget = Pick<PolicyRow, 'targetType' | 'siteId' | 'groupId'>;

/** 403 unless the caller may change a policy with this target. */
export function assertMayManage(ctx: RequestContext, target: Pick<PolicyRow, 'siteId'>): void {
  if (target.siteId === null && (!isAdmin(ctx) || isSiteLimited(ctx))) {
    throw forbidden(messages.tenantTargetAdminOnly, 'POLICY_TENANT_TARGET');
  }
}

/** The target a body names, checked against the caller's scope. */
export async function resolveTarget(
  db: Reader,
  ctx: RequestContext,
  body: Pick<PolicyCreateInput, 'target_type' | 'site_id' | 'group_id'>,
): Promise<ResolvedTarget> {
  switch (body.target_type) {
    case 'tenant':
      return { targetType: 'tenant', siteId: null, groupId: null };
    case 'site': {
      if (body.site_id == null) {
        throw badRequest(messages.siteRequired, 'SITE_REQUIRED');
      }
      const site = await findSite(db, ctx, body.site_id);
      if (!site) {
        throw notFound(messages.siteNotFound, 'SITE_NOT_FOUND');
      }
      return { targetType: 'site', siteId: site.id, groupId: null };
    }
    case 'group': {
      if (body.group_id == null) {
        throw badRequest(messages.groupRequired, 'GROUP_REQUIRED');
      }
      const group = await findGroup(db, ctx, body.group_id);
      if (!group) {
        throw notFound(messages.groupNotFound, 'GROUP_NOT_FOUND');
      }
      return { targetType: 'group', siteId: group.siteId, groupId: group.id };
    }
  }
}

/** The package the caller sees; a site's package only for a target within that site (409). */
export async function checkedPackage(
  db: Reader,
  ctx: RequestContext,
  packageId: number,
  target: ResolvedTarget,
) {
  const pkg = await findPackage(db, ctx, packageId);
  if (!pkg) {
    throw notFound(messages.packageNotFound, 'PACKAGE_NOT_FOUND');
  }
  if (pkg.siteId !== null && pkg.siteId !== target.siteId) {
    const site = await findSite(db, { ...ctx, siteAccessType: 'all' }, pkg.siteId);
    throw conflict(
      messages.packageOutsideTarget(site?.name ?? `site ${pkg.siteId}`),
      'PACKAGE_SITE_MISMATCH',
    );
  }
  return pkg;
}
