import { adminMessages as messages } from '@outpost/contract/messages';
import { userSiteAccessError } from '@outpost/contract/users';
import type { Role, SiteAccessType } from '@outpost/contract/auth';
import type { Executor } from '../../lib/db';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import type { RequestContext } from '../../lib/context';
import { findSiteIdsInScope, findUserIdByEmail, findUsers } from './users.queries';
import type { UserRow } from './users.queries';

// The checks and audit values the users service (users.service.ts) shares between its methods.

export const siteIdsOf = (row: Pick<UserRow, 'assignedSiteIds'>) =>
  row.assignedSiteIds ? row.assignedSiteIds.split(',').map(Number) : [];

/** What the audit entry records of a user. */
export const auditValues = (u: {
  email: string;
  name: string | null;
  role: Role;
  siteAccessType: string;
  siteIds: number[];
}) => ({
  email: u.email,
  name: u.name,
  role: u.role,
  site_access_type: u.siteAccessType,
  site_ids: u.siteIds,
});

export const rowValues = (row: UserRow) => auditValues({ ...row, siteIds: siteIdsOf(row) });

/** The sites an entry about a member concerns: none (tenant-wide) for a member of all sites. */
export const accessSites = (access: string, siteIds: number[]) => (access === 'specific' ? siteIds : null);

export const who = (u: { name: string | null; email: string }) =>
  u.name ? `${u.name} (${u.email})` : u.email;

/** A site-limited administrator manages only users whose access is within their own sites. */
export function requireManageable(ctx: RequestContext, row: UserRow): void {
  if (!isSiteLimited(ctx)) {
    return;
  }
  const own = new Set(ctx.siteIds);
  if (row.siteAccessType === 'all' || siteIdsOf(row).some((id) => !own.has(id))) {
    throw forbidden(messages.siteAccessBeyondOwn, 'SITE_ACCESS_BEYOND_OWN');
  }
}

/** Checks the site access a user is to get; returns the site ids to store. */
export async function checkSiteAccess(
  ex: Executor,
  ctx: RequestContext,
  access: SiteAccessType,
  siteIds: number[],
): Promise<number[]> {
  const error = userSiteAccessError(access, siteIds);
  if (error) {
    throw badRequest(error, 'SITE_REQUIRED');
  }
  if (access === 'all') {
    if (isSiteLimited(ctx)) {
      throw forbidden(messages.siteAccessBeyondOwn, 'SITE_ACCESS_BEYOND_OWN');
    }
    return [];
  }
  const wanted = [...new Set(siteIds)].sort((a, b) => a - b);
  // For a site-limited administrator, sites outside theirs are not found, like another tenant's.
  const found = new Set(await findSiteIdsInScope(ex, ctx, wanted));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw badRequest(messages.sitesNotInTenant(missing), 'SITE_NOT_FOUND');
  }
  return wanted;
}

export async function requireEmailFree(ex: Executor, ctx: RequestContext, email: string, exceptId?: number) {
  const existing = await findUserIdByEmail(ex, ctx, email);
  if (existing !== null && existing !== exceptId) {
    throw conflict(messages.emailTaken(email), 'EMAIL_TAKEN');
  }
}

export async function loadOne(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<UserRow> {
  const [row] = await findUsers(ex, ctx, [id], { lock });
  if (!row) {
    throw notFound(messages.userNotFound, 'USER_NOT_FOUND');
  }
  return row;
}
