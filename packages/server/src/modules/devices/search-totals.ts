import type { DeviceListFilters } from '@outpost/contract/devices';
import { isSiteLimited } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

/** How long a search's total is reused, per scope, filters and term. */
export const SEARCH_TOTAL_TTL_MS = 10_000;
/** Searches remembered at most (the oldest goes first). */
const SEARCH_TOTALS_KEPT = 1_000;

type SearchFilters = Partial<
  Pick<
    DeviceListFilters,
    | 'search'
    | 'status'
    | 'os_type'
    | 'site_id'
    | 'tag_id'
    | 'group_id'
    | 'field_key'
    | 'field_value'
    | 'field_op'
  >
>;

/**
 * The totals of recent device searches. Counting a search's matches is most of its cost (a
 * substring has no counter: every match is counted), and someone paging through the results, or a
 * list refetching, asks the same count again and again. A total is reused for
 * SEARCH_TOTAL_TTL_MS; the rows are always read fresh, and a page that disagrees with the total
 * (a short page not ending at it, a full one past it) is counted again (devices-list.queries.ts).
 * A device enrolled meanwhile is in the rows at once and in 'Showing X of Y' within 10 s; removing
 * devices forgets the tenant's totals. Per instance; the key holds the tenant and, for a
 * site-limited caller, exactly their sites, so a total never reaches a caller of another scope.
 */
export function createSearchTotals(now: () => number = Date.now) {
  const totals = new Map<string, { at: number; total: number; setSize?: number; tenantId: number }>();
  const keyOf = (ctx: Scope, f: SearchFilters) =>
    JSON.stringify([
      ctx.tenantId,
      isSiteLimited(ctx) ? [...ctx.siteIds].sort((a, b) => a - b) : '*',
      (f.search ?? '').toLowerCase(),
      f.status ?? '',
      f.os_type ?? '',
      f.site_id ?? 0,
      // the set filters (docs/product/device-sets.md#device-list-filters), counted the same way
      f.tag_id ?? 0,
      f.group_id ?? 0,
      f.field_key ?? '',
      f.field_value ?? '',
      f.field_op ?? 'eq',
    ]);
  /** the total and, for a set filter, the set's size (it says how the set is read) */
  const entry = (ctx: Scope, f: SearchFilters): { total: number; setSize?: number } | undefined => {
    const hit = totals.get(keyOf(ctx, f));
    return hit && now() - hit.at < SEARCH_TOTAL_TTL_MS ? hit : undefined;
  };
  return {
    get: (ctx: Scope, f: SearchFilters): number | undefined => entry(ctx, f)?.total,
    entry,
    set(ctx: Scope, f: SearchFilters, total: number, setSize?: number): void {
      const key = keyOf(ctx, f);
      totals.delete(key);
      totals.set(key, { at: now(), total, setSize, tenantId: ctx.tenantId });
      if (totals.size > SEARCH_TOTALS_KEPT) {
        totals.delete(totals.keys().next().value!);
      }
    },
    forgetTenant(tenantId: number): void {
      for (const [key, entry] of totals) {
        if (entry.tenantId === tenantId) {
          totals.delete(key);
        }
      }
    },
  };
}
