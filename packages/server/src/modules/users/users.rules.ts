import { adminMessages as messages } from '@outpost/contract/messages';
import { conflict } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';

// The rules that keep an organization administrable (docs/product/administration.md). `admins`
// are read with lockAdmins at the start of the transaction: every change to users locks the
// administrator rows first, in one order, so two administrators removing each other take turns
// (the second sees the first's change) instead of both succeeding or deadlocking.

export type AdminRow = { id: number; siteAccessType: string };

/** What a change does to administrators: who stops being one, who loses access to all sites. */
export type AdminChange = { losing: number[]; losingAllSites: number[]; kind: 'delete' | 'demote' };

/** Refuses a change that leaves the tenant without an administrator. */
export function requireAdminRemains(ctx: RequestContext, admins: AdminRow[], change: AdminChange): void {
  const remaining = admins.filter((a) => !change.losing.includes(a.id));
  if (admins.length > 0 && remaining.length === 0) {
    if (change.losing.includes(ctx.userId)) {
      throw conflict(
        change.kind === 'delete' ? messages.lastAdminDelete : messages.lastAdminDemote,
        'LAST_ADMIN',
      );
    }
    throw conflict(messages.lastAdminRemoved, 'LAST_ADMIN');
  }
  // SECURITY.md R2-10: only an administrator with access to all sites can grant it, so the last
  // one stays, even when site-limited administrators remain.
  const allSites = admins.filter((a) => a.siteAccessType === 'all');
  const allSitesRemaining = allSites.filter(
    (a) => !change.losing.includes(a.id) && !change.losingAllSites.includes(a.id),
  );
  if (allSites.length > 0 && allSitesRemaining.length === 0) {
    throw conflict(messages.lastAllSitesAdmin, 'LAST_ALL_SITES_ADMIN');
  }
}
