import { useCallback, useMemo, useState } from 'react';
import type { PagedOverviewQuery } from '@outpost/contract/activity';
import { ACTIVITY_PAGE_SIZE } from '@outpost/contract/limits';
import { useListState } from '../../../lib/use-list-state';
import type { ListState } from '../../../lib/use-list-state';
import type { OverviewFilters, Sort, SortKey } from './overview';
import { DEFAULT_SORT, NO_FILTERS, nextSort } from './overview';

// What the Device Activity page asks the server for (docs/product/activity.md#device-activity-overview): the search box (sent
// once typing pauses), the two filters, the sort and the page. A change of search or filter goes
// back to page 1 (useListState); so does a change of sort, as the new order starts at its top.

export type OverviewState = {
  list: ListState<OverviewFilters>;
  sort: Sort;
  sortBy: (key: SortKey) => void;
  /** the paged call's arguments; every one is in the query key */
  query: PagedOverviewQuery;
};

export function useOverviewState(): OverviewState {
  const list = useListState<OverviewFilters>({ filters: NO_FILTERS, pageSize: ACTIVITY_PAGE_SIZE });
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const { setPage } = list;
  const sortBy = useCallback(
    (key: SortKey) => {
      setSort((s) => nextSort(s, key));
      setPage(1);
    },
    [setPage],
  );
  const query = useMemo<PagedOverviewQuery>(
    () => ({
      page: list.page,
      limit: list.pageSize,
      search: list.searchTerm,
      utilization: list.filters.utilization || null,
      sessions: list.filters.sessions || null,
      sort: sort.key,
      order: sort.direction,
    }),
    [list.page, list.pageSize, list.searchTerm, list.filters, sort],
  );
  return { list, sort, sortBy, query };
}
