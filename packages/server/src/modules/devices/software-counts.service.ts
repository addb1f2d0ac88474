import type { Executor } from '../../lib/db';
import { foldSitesIntoNone } from './software-counts.queries';

// The fleet software counts' part in other modules' transactions (docs/product/device-sets.md#fleet-software):
// the devices module owns the counts, the sites module deletes sites.

/**
 * Sites deleted in this transaction: their devices' software counts move to "no site", as the
 * devices themselves do. Not authorised here: the caller deleted the sites within its scope.
 */
export function moveSoftwareOfDeletedSites(tx: Executor, tenantId: number, siteIds: number[]) {
  return foldSitesIntoNone(tx, tenantId, siteIds);
}
