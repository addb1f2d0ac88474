import type { ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import { PAGE_SIZES } from '@outpost/contract/limits';
import { Button } from './button';
import { Select } from './form';
import { SearchInput } from './list-toolbar';

// docs/product/administration.md#admin-lists Shared admin list filter bar — search, a per-page choice (10, 20, 50,
// 100) and optional Search and Clear buttons; the admin screens (users, sites) add their own
// filters and actions beside them.

export function PageSizeSelect({
  value,
  onChange,
  label = 'Per page',
}: {
  value: number;
  onChange: (size: number) => void;
  label?: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm whitespace-nowrap text-slate-500 dark:text-slate-400">
      <span>{label}</span>
      <Select
        aria-label="Page size"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="w-24 shrink-0"
      >
        {PAGE_SIZES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </Select>
    </label>
  );
}

export function AdminFilterBar({
  search,
  onSearchChange,
  searchPlaceholder,
  pageSize,
  onPageSizeChange,
  onSearch,
  onClear,
  filters,
  actions,
}: {
  search: string;
  onSearchChange: (value: string) => void;
  searchPlaceholder?: string;
  pageSize: number;
  onPageSizeChange: (size: number) => void;
  /** shows a Search button (for searches applied on demand) */
  onSearch?: () => void;
  /** shows a Clear button; the owner passes it only while something is set */
  onClear?: () => void;
  filters?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 lg:flex-row lg:items-center dark:border-slate-800">
      <form
        role="search"
        className="flex w-full items-center gap-2 sm:w-auto sm:min-w-80"
        onSubmit={(e) => {
          e.preventDefault();
          onSearch?.();
        }}
      >
        <SearchInput value={search} onChange={onSearchChange} placeholder={searchPlaceholder} />
        {onSearch && (
          <Button type="submit" size="md" icon={<Search className="size-4" />}>
            Search
          </Button>
        )}
      </form>
      <div className="flex flex-1 flex-wrap items-center gap-2">
        {filters}
        {onClear && (
          <Button variant="ghost" size="sm" onClick={onClear} icon={<X className="size-3.5" />}>
            Clear
          </Button>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <PageSizeSelect value={pageSize} onChange={onPageSizeChange} />
        {actions}
      </div>
    </div>
  );
}

/** docs/product/administration.md#admin-lists — 'Showing a to b of n results'. */
export function resultsText(page: number, pageSize: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) {
    return `Showing 0 of ${total} results`;
  }
  const from = (page - 1) * pageSize + 1;
  return `Showing ${from} to ${from + shown - 1} of ${total} results`;
}

/** Below an admin list: the results text and a pager. */
export function AdminListFooter({
  page,
  pageSize,
  shown,
  total,
  pager,
}: {
  page: number;
  pageSize: number;
  shown: number;
  total: number;
  pager: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
      <p className="text-sm whitespace-nowrap text-slate-500 dark:text-slate-400">
        {resultsText(page, pageSize, shown, total)}
      </p>
      {pager}
    </div>
  );
}
