// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminFilterBar, resultsText } from './admin-filter-bar';

describe('admin filter bar (docs/product/administration.md#admin-lists)', () => {
  afterEach(cleanup);

  it('offers 10, 20, 50 and 100 per page, and Search and Clear only when asked', async () => {
    const onPageSizeChange = vi.fn();
    const onSearch = vi.fn();
    const user = userEvent.setup();
    const props = { search: '', onSearchChange: vi.fn(), pageSize: 20, onPageSizeChange };
    const { rerender } = render(<AdminFilterBar {...props} />);
    expect([...screen.getByLabelText('Page size').querySelectorAll('option')].map((o) => o.value)).toEqual([
      '10',
      '20',
      '50',
      '100',
    ]);
    expect(screen.queryByRole('button', { name: 'Search' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    await user.selectOptions(screen.getByLabelText('Page size'), '50');
    expect(onPageSizeChange).toHaveBeenCalledWith(50);
    rerender(<AdminFilterBar {...props} onSearch={onSearch} onClear={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Clear' })).toBeVisible();
  });

  it("says 'Showing a to b of n results'", () => {
    expect(resultsText(1, 20, 20, 45)).toBe('Showing 1 to 20 of 45 results');
    expect(resultsText(3, 20, 5, 45)).toBe('Showing 41 to 45 of 45 results');
    expect(resultsText(1, 20, 0, 0)).toBe('Showing 0 of 0 results');
  });
});
