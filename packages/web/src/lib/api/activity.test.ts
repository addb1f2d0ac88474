import { describe, expect, it } from 'vitest';
import type { PagedOverviewQuery } from '@outpost/contract/activity';
import { getActivityOverviewPageQueryOptions } from './activity';

// Fleet's habit (STYLE.md): a query key holds every argument its fetcher sends, tenant included.

const query: PagedOverviewQuery = {
  page: 2,
  limit: 50,
  search: 'berlin',
  utilization: 'high',
  sessions: 'active',
  sort: 'device',
  order: 'asc',
};

describe('the paged overview query', () => {
  it('keys on the tenant and every argument', () => {
    const key = getActivityOverviewPageQueryOptions(7, query).queryKey;
    expect(key).toEqual(['activity', 7, 'overview', query]);
    expect(getActivityOverviewPageQueryOptions(8, query).queryKey).not.toEqual(key);
  });

  it("keeps the previous page on screen while the next loads, but never another tenant's", () => {
    const { placeholderData } = getActivityOverviewPageQueryOptions(7, query);
    const previous = { data: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 1 } };
    type Placeholder = (data: unknown, q: { queryKey: readonly unknown[] } | undefined) => unknown;
    const keep = placeholderData as unknown as Placeholder;
    expect(keep(previous, { queryKey: ['activity', 7, 'overview', { ...query, page: 1 }] })).toBe(previous);
    expect(keep(previous, { queryKey: ['activity', 8, 'overview', query] })).toBeUndefined();
  });
});
