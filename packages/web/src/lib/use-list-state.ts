import { useCallback, useMemo, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '@outpost/contract/limits';
import { useDebouncedValue } from './use-debounced-value';

// The state every list screen keeps (docs/product/devices.md#lists): a search box whose term
// is sent once typing pauses, filters, page and page size, and a selection of row ids. Changing
// the search, a filter or the page size returns to page 1 (docs/product); any change of what is listed,
// the page included, clears the selection, so an action never applies to rows no longer shown.

export const SEARCH_DEBOUNCE_MS = 300;

export type ListStateOptions<F extends Record<string, string>> = {
  filters: F;
  pageSize?: number;
  debounceMs?: number;
};

export type ListState<F extends Record<string, string>> = {
  /** what the search box shows */
  search: string;
  /** the trimmed term to query with, once typing has paused */
  searchTerm: string;
  setSearch: (value: string) => void;
  filters: F;
  setFilter: <K extends keyof F>(key: K, value: F[K]) => void;
  page: number;
  setPage: (page: number) => void;
  pageSize: number;
  setPageSize: (size: number) => void;
  hasActiveFilters: boolean;
  /** Empty the search and every filter. */
  clearFilters: () => void;
  selected: ReadonlySet<number>;
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  /** Select every id given, or clear the selection when all of them already are. */
  toggleAll: (ids: readonly number[]) => void;
  clearSelection: () => void;
};

export function useListState<F extends Record<string, string>>(options: ListStateOptions<F>): ListState<F> {
  const initialFilters = options.filters;
  const [search, setSearchText] = useState('');
  const [filters, setFilters] = useState<F>(initialFilters);
  const [page, setPageNumber] = useState(1);
  const [pageSize, setPageSizeValue] = useState(options.pageSize ?? DEFAULT_PAGE_SIZE);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const searchTerm = useDebouncedValue(search.trim(), options.debounceMs ?? SEARCH_DEBOUNCE_MS);

  const restart = useCallback(() => {
    setPageNumber(1);
    setSelected(new Set());
  }, []);
  const setSearch = useCallback(
    (value: string) => {
      setSearchText(value);
      restart();
    },
    [restart],
  );
  const setFilter = useCallback(
    <K extends keyof F>(key: K, value: F[K]) => {
      setFilters((f) => ({ ...f, [key]: value }));
      restart();
    },
    [restart],
  );
  const setPageSize = useCallback(
    (size: number) => {
      setPageSizeValue(size);
      restart();
    },
    [restart],
  );
  const setPage = useCallback((p: number) => {
    setPageNumber(p);
    setSelected(new Set());
  }, []);
  const clearFilters = useCallback(() => {
    setSearchText('');
    setFilters(initialFilters);
    restart();
    // The initial filters are the caller's constant: reading them once is the intent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [restart]);

  const toggle = useCallback((id: number) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });
  }, []);
  const toggleAll = useCallback((ids: readonly number[]) => {
    setSelected((s) => (ids.length > 0 && ids.every((id) => s.has(id)) ? new Set() : new Set(ids)));
  }, []);
  const clearSelection = useCallback(() => setSelected(new Set()), []);

  const hasActiveFilters =
    search.trim() !== '' || Object.keys(filters).some((k) => filters[k] !== initialFilters[k]);

  return useMemo(
    () => ({
      search,
      searchTerm,
      setSearch,
      filters,
      setFilter,
      page,
      setPage,
      pageSize,
      setPageSize,
      hasActiveFilters,
      clearFilters,
      selected,
      isSelected: (id: number) => selected.has(id),
      toggle,
      toggleAll,
      clearSelection,
    }),
    [
      search,
      searchTerm,
      setSearch,
      filters,
      setFilter,
      page,
      setPage,
      pageSize,
      setPageSize,
      hasActiveFilters,
      clearFilters,
      selected,
      toggle,
      toggleAll,
      clearSelection,
    ],
  );
}
