import { describe, expect, it } from 'vitest';
import { createSearchTotals, SEARCH_TOTAL_TTL_MS } from './search-totals';

const all = (tenantId: number) => ({ tenantId, siteAccessType: 'all' as const, siteIds: [] });
const sites = (tenantId: number, siteIds: number[]) => ({
  tenantId,
  siteAccessType: 'specific' as const,
  siteIds,
});

describe('search totals', () => {
  it('are reused for a while, per scope, filters and term (case-insensitive)', () => {
    let now = 0;
    const totals = createSearchTotals(() => now);
    totals.set(all(1), { search: 'PC-00' }, 42);
    expect(totals.get(all(1), { search: 'pc-00' })).toBe(42);
    expect(totals.get(all(2), { search: 'pc-00' })).toBeUndefined();
    expect(totals.get(sites(1, [3]), { search: 'pc-00' })).toBeUndefined();
    expect(totals.get(all(1), { search: 'pc-00', status: 'online' })).toBeUndefined();
    expect(totals.get(all(1), { search: 'pc-0' })).toBeUndefined();
    now = SEARCH_TOTAL_TTL_MS - 1;
    expect(totals.get(all(1), { search: 'pc-00' })).toBe(42);
    now = SEARCH_TOTAL_TTL_MS;
    expect(totals.get(all(1), { search: 'pc-00' })).toBeUndefined();
  });

  it("keep a set filter's size with its total (it says how the set is read)", () => {
    const totals = createSearchTotals(() => 0);
    totals.set(all(1), { tag_id: 4, site_id: 2 }, 1667, 30_000);
    expect(totals.entry(all(1), { tag_id: 4, site_id: 2 })).toMatchObject({ total: 1667, setSize: 30_000 });
    expect(totals.entry(all(1), { tag_id: 4 })).toBeUndefined();
  });

  it('key a site-limited caller by exactly their sites, in any order', () => {
    const totals = createSearchTotals(() => 0);
    totals.set(sites(1, [5, 3]), { search: 'x' }, 7);
    expect(totals.get(sites(1, [3, 5]), { search: 'x' })).toBe(7);
    expect(totals.get(sites(1, [3]), { search: 'x' })).toBeUndefined();
    expect(totals.get(all(1), { search: 'x' })).toBeUndefined();
  });

  it("forget a tenant's totals (its devices were removed) and only that tenant's", () => {
    const totals = createSearchTotals(() => 0);
    totals.set(all(1), { search: 'a' }, 1);
    totals.set(sites(1, [2]), { search: 'b' }, 2);
    totals.set(all(2), { search: 'a' }, 3);
    totals.forgetTenant(1);
    expect(totals.get(all(1), { search: 'a' })).toBeUndefined();
    expect(totals.get(sites(1, [2]), { search: 'b' })).toBeUndefined();
    expect(totals.get(all(2), { search: 'a' })).toBe(3);
  });
});
