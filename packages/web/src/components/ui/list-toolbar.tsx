import type { ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import { osTypeLabel } from '@outpost/contract/devices';
import { PAGE_SIZES } from '@outpost/contract/limits';
import { Button } from './button';
import { Input, Select } from './form';
import { Pager } from './pager';
import { cn } from '../../lib/cn';

// docs/product/devices.md#lists — search, optional filters, 'Clear' when filters are active,
// 'Showing X of Y', a page-size selector and the pager. The owner resets the page to 1 on changes.

export function SearchInput({
  value,
  onChange,
  placeholder = 'Search...',
  label = 'Search',
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  label?: string;
}) {
  return (
    <div className="relative w-full sm:max-w-xs">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
        aria-hidden
      />
      <Input
        type="search"
        name="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="pl-9"
      />
    </div>
  );
}

export function ListToolbar({
  search,
  onSearchChange,
  searchPlaceholder,
  filters,
  hasActiveFilters,
  onClear,
  actions,
}: {
  search: string;
  onSearchChange: (v: string) => void;
  searchPlaceholder?: string;
  filters?: ReactNode;
  hasActiveFilters?: boolean;
  onClear?: () => void;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 lg:flex-row lg:items-center dark:border-slate-800">
      {/* On a wide screen the search box gives way (down to 12rem) before the filters wrap. */}
      <div className="lg:min-w-48 lg:flex-[0_1_20rem]">
        <SearchInput value={search} onChange={onSearchChange} placeholder={searchPlaceholder} />
      </div>
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2 xl:flex-[1_1_auto]">
        {filters}
        {hasActiveFilters && onClear && (
          <Button variant="ghost" size="sm" onClick={onClear} icon={<X className="size-3.5" />}>
            Clear
          </Button>
        )}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  );
}

export function ListFooter({
  shown,
  total,
  page,
  totalPages,
  pageSize,
  onPageChange,
  onPageSizeChange,
}: {
  shown: number;
  total: number;
  page: number;
  totalPages: number;
  pageSize: number;
  onPageChange: (p: number) => void;
  onPageSizeChange: (size: number) => void;
}) {
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
      <div className="flex items-center gap-3 text-sm text-slate-500 dark:text-slate-400">
        <span className="whitespace-nowrap">
          Showing {shown} of {total}
        </span>
        <label className="flex items-center gap-2 whitespace-nowrap">
          <span className="hidden sm:inline">Per page</span>
          <Select
            aria-label="Page size"
            name="page-size"
            value={pageSize}
            onChange={(e) => onPageSizeChange(Number(e.target.value))}
            className="w-20"
          >
            {PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </label>
      </div>
      <Pager page={page} totalPages={totalPages} onPageChange={onPageChange} />
    </div>
  );
}

export type FilterOption<V extends string> = { value: V; label: string };

/** One filter of a list toolbar: a labelled select of options, the first usually "All …". */
export function FilterSelect<V extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: V;
  options: FilterOption<V>[];
  onChange: (value: V) => void;
  className?: string;
}) {
  return (
    <Select
      aria-label={label}
      name={label.toLowerCase().replace(/\W+/g, '-')}
      value={value}
      onChange={(e) => onChange(e.target.value as V)}
      className={cn('w-full sm:w-40', className)}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}

/**
 * The OS filter's options (product rule: built from the loaded rows; the chosen one stays offered),
 * named by the contract's osTypeLabel.
 */
export function osTypeOptions(
  osTypes: readonly (string | null | undefined)[],
  chosen: string,
  allLabel = 'All OS types',
): FilterOption<string>[] {
  const set = new Set(osTypes.filter((t): t is string => Boolean(t)));
  if (chosen) {
    set.add(chosen);
  }
  return [
    { value: '', label: allLabel },
    ...[...set].sort().map((value) => ({ value, label: osTypeLabel(value) })),
  ];
}
