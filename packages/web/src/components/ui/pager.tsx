import { ChevronLeft, ChevronRight } from 'lucide-react';
import { PAGER_MAX_NUMBERS } from '@outpost/contract/limits';
import { cn } from '../../lib/cn';

/** Up to `max` page numbers centred on the current page (docs/product/devices.md#lists shared list toolbar). */
export function pageWindow(current: number, totalPages: number, max = PAGER_MAX_NUMBERS): number[] {
  if (totalPages <= 0) {
    return [];
  }
  const count = Math.min(max, totalPages);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, totalPages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** docs/product/devices.md#device-detail — first, last and the current page plus or minus one, with gaps. */
export function compactPages(current: number, totalPages: number): (number | 'gap')[] {
  const pages = new Set([1, totalPages, current - 1, current, current + 1]);
  const list = [...pages].filter((p) => p >= 1 && p <= totalPages).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  list.forEach((p, i) => {
    const before = list[i - 1];
    if (before !== undefined && p - before > 1) {
      out.push('gap');
    }
    out.push(p);
  });
  return out;
}

/**
 * The one pager. `window` (lists, docs/product/devices.md#lists): up to 5 numbers around the current page and
 * 'of N' beyond 5 pages; `compact` (device software, docs/product/devices.md#device-detail): first, last and current ± 1
 * with gaps. Hidden with one page or fewer.
 */
export function Pager({
  page,
  totalPages,
  onPageChange,
  variant = 'window',
  label = 'Pagination',
}: {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  variant?: 'window' | 'compact';
  label?: string;
}) {
  if (totalPages <= 1) {
    return null;
  }
  const pages: (number | 'gap')[] =
    variant === 'compact' ? compactPages(page, totalPages) : pageWindow(page, totalPages);
  const btn =
    'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <nav aria-label={label} className="flex items-center gap-1">
      <button
        type="button"
        aria-label="Previous page"
        className={cn(btn, 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800')}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        <ChevronLeft className="size-4" />
      </button>
      {pages.map((p, i) =>
        p === 'gap' ? (
          <span key={`gap-${i}`} className="px-1 text-slate-500 dark:text-slate-400" aria-hidden>
            …
          </span>
        ) : (
          <button
            key={p}
            type="button"
            aria-current={p === page ? 'page' : undefined}
            onClick={() => onPageChange(p)}
            className={cn(
              btn,
              p === page
                ? 'bg-indigo-600 text-white shadow-sm'
                : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
            )}
          >
            {p}
          </button>
        ),
      )}
      {variant === 'window' && totalPages > PAGER_MAX_NUMBERS && (
        <span className="px-1.5 text-sm text-slate-500 dark:text-slate-400">of {totalPages}</span>
      )}
      <button
        type="button"
        aria-label="Next page"
        className={cn(btn, 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800')}
        disabled={page >= totalPages}
        onClick={() => onPageChange(page + 1)}
      >
        <ChevronRight className="size-4" />
      </button>
    </nav>
  );
}
