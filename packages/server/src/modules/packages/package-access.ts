import { packageMessages as messages } from '@outpost/contract/messages';
import type { Executor } from '../../lib/db';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { canSeeSite, isSiteLimited } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';
import type { RequestContext } from '../../lib/context';
import type { Architecture, TargetOs } from '@outpost/contract/targets';
import { assertDevicesRunTarget } from './package-targets';
import type { DeployTarget } from './package-targets';
import { findSiteName } from './packages.queries';
import type { Editor, PackageRow } from './packages.queries';

// Who may change a package (SECURITY.md R2-5, docs/decisions/2026-11-26-package-owner-scope.md).
// A package is shared with all sites (site_id null) or owned by one site. Reading follows the
// site scope (packages.queries inScopeOrShared: another site's package is not found); changing
// a shared package needs all-site access, because a shared package may be deployed anywhere.

/** A change to this (visible) package is refused for a site-limited caller when it is shared. */
export function assertMayChange(ctx: RequestContext, row: PackageRow): void {
  if (isSiteLimited(ctx) && row.siteId === null) {
    throw forbidden(messages.tenantWideReadOnly, 'PACKAGE_READ_ONLY');
  }
}

/** The caller as the package's last editor. */
export const editorOf = (ctx: RequestContext): Editor => ({
  userId: ctx.userId,
  name: ctx.name ?? ctx.email,
});

/**
 * The owner scope of a new package (create, import, duplicate). All-site callers may choose any
 * site of their tenant or none (shared); omitted, the package is shared, or a copy keeps its
 * source's site. A site-limited caller's package always belongs to one of their sites: the one
 * asked for, the source's when it is theirs, or their only site; with several, they must choose.
 */
export async function siteForNewPackage(
  ex: Executor,
  ctx: RequestContext,
  requested: number | null | undefined,
  fallback: number | null = null,
): Promise<number | null> {
  if (!isSiteLimited(ctx)) {
    return requested === undefined ? fallback : checkedSite(ex, ctx, requested);
  }
  if (requested !== undefined) {
    return ownSite(ctx, requested);
  }
  if (fallback !== null && canSeeSite(ctx, fallback)) {
    return fallback;
  }
  const [only, ...others] = ctx.siteIds;
  if (only === undefined) {
    throw forbidden(messages.siteOutsideScope, 'SITE_OUTSIDE_SCOPE');
  }
  if (others.length > 0) {
    throw badRequest(messages.chooseSite, 'SITE_REQUIRED');
  }
  return only;
}

/** The owner scope after an update: unchanged when omitted; the same rules as a new package otherwise. */
export async function siteForUpdate(
  ex: Executor,
  ctx: RequestContext,
  row: PackageRow,
  requested: number | null | undefined,
): Promise<number | null> {
  if (requested === undefined || requested === row.siteId) {
    return row.siteId;
  }
  return isSiteLimited(ctx) ? ownSite(ctx, requested) : checkedSite(ex, ctx, requested);
}

/** A site-limited caller names one of their own sites, never "all sites". */
function ownSite(ctx: RequestContext, siteId: number | null): number {
  if (siteId === null || !canSeeSite(ctx, siteId)) {
    throw forbidden(messages.siteOutsideScope, 'SITE_OUTSIDE_SCOPE');
  }
  return siteId;
}

/** A site of the caller's tenant, or none; another tenant's site does not exist. */
async function checkedSite(ex: Executor, ctx: RequestContext, siteId: number | null): Promise<number | null> {
  if (siteId !== null && (await findSiteName(ex, ctx, siteId)) === null) {
    throw notFound(messages.siteNotFound, 'SITE_NOT_FOUND');
  }
  return siteId;
}

/**
 * The sites an audit entry about a package carries (the audit log's site scope, SECURITY.md R2-9):
 * the package's site (before and after a move), or none for a shared package (a tenant-wide entry).
 * Spread into the entry, so it reads the same whether or not the audit entry type has the field yet.
 */
export const auditSiteOf = (...siteIds: (number | null)[]) => ({ siteIds });

/**
 * A package owned by a site is deployed only to that site's devices (R2-5), and any package only
 * to devices of its target OS (docs/decisions/2026-11-26-package-targets.md): a job naming any
 * other device is refused with 409 and the hostnames, whoever creates it.
 */
export async function assertDeployableTo(
  ex: Executor,
  scope: TenantScope,
  pkg: { site_id: number | null; target_os: TargetOs; architecture: Architecture },
  targets: (DeployTarget & { siteId: number | null })[],
): Promise<void> {
  const siteId = pkg.site_id;
  if (siteId === null) {
    assertDevicesRunTarget(pkg, targets);
    return;
  }
  const outside = targets.filter((t) => t.siteId !== siteId);
  if (outside.length > 0) {
    const site = (await findSiteName(ex, scope, siteId)) ?? `#${siteId}`;
    throw conflict(
      messages.deployOutsideSite(
        site,
        outside.map((t) => t.hostname ?? `device ${t.id}`),
      ),
      'PACKAGE_SITE_MISMATCH',
    );
  }
  assertDevicesRunTarget(pkg, targets);
}
