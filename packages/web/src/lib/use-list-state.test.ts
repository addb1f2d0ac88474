// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useListState } from './use-list-state';

const setup = () => renderHook(() => useListState({ filters: { status: '', os: '' }, pageSize: 20 })).result;

describe('useListState (docs/product/devices.md#lists)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the search term once typing has paused for 300 ms, trimmed', () => {
    const list = setup();
    act(() => list.current.setSearch(' ws'));
    act(() => list.current.setSearch(' ws-01 '));
    expect(list.current.search).toBe(' ws-01 ');
    expect(list.current.searchTerm).toBe('');
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(list.current.searchTerm).toBe('');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(list.current.searchTerm).toBe('ws-01');
  });

  it.each([
    ['the search', (l: ReturnType<typeof setup>['current']) => l.setSearch('x')],
    ['a filter', (l: ReturnType<typeof setup>['current']) => l.setFilter('status', 'online')],
    ['the page size', (l: ReturnType<typeof setup>['current']) => l.setPageSize(50)],
    ['clearing the filters', (l: ReturnType<typeof setup>['current']) => l.clearFilters()],
  ])('changing %s returns to page 1 and clears the selection', (_what, change) => {
    const list = setup();
    act(() => list.current.setPage(4));
    act(() => list.current.toggle(7));
    expect(list.current.page).toBe(4);
    expect(list.current.isSelected(7)).toBe(true);
    act(() => change(list.current));
    expect(list.current.page).toBe(1);
    expect(list.current.selected.size).toBe(0);
  });

  it('a page change clears the selection too', () => {
    const list = setup();
    act(() => list.current.toggle(1));
    act(() => list.current.setPage(2));
    expect(list.current.page).toBe(2);
    expect(list.current.selected.size).toBe(0);
  });

  it('knows when filters are active and clears them back to the initial values', () => {
    const list = setup();
    expect(list.current.hasActiveFilters).toBe(false);
    act(() => list.current.setFilter('os', 'windows'));
    expect(list.current.hasActiveFilters).toBe(true);
    expect(list.current.filters).toEqual({ status: '', os: 'windows' });
    act(() => list.current.clearFilters());
    expect(list.current.filters).toEqual({ status: '', os: '' });
    act(() => list.current.setSearch('  '));
    expect(list.current.hasActiveFilters).toBe(false);
    act(() => list.current.setSearch('a'));
    expect(list.current.hasActiveFilters).toBe(true);
  });

  it('toggles rows, and toggleAll selects all given ids or clears them when all are selected', () => {
    const list = setup();
    act(() => list.current.toggle(1));
    act(() => list.current.toggle(2));
    act(() => list.current.toggle(1));
    expect([...list.current.selected]).toEqual([2]);
    act(() => list.current.toggleAll([1, 2, 3]));
    expect([...list.current.selected].sort()).toEqual([1, 2, 3]);
    act(() => list.current.toggleAll([1, 2, 3]));
    expect(list.current.selected.size).toBe(0);
    act(() => list.current.toggleAll([]));
    expect(list.current.selected.size).toBe(0);
    act(() => list.current.toggle(5));
    act(() => list.current.clearSelection());
    expect(list.current.selected.size).toBe(0);
  });

  it('starts on page 1 with the given page size', () => {
    const list = setup();
    expect(list.current.page).toBe(1);
    expect(list.current.pageSize).toBe(20);
    act(() => list.current.setPageSize(100));
    expect(list.current.pageSize).toBe(100);
  });
});
