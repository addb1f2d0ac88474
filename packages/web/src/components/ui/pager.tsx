import { ChevronLeft, ChevronRight } from 'lucide-react';
import { PAGER_MAX_NUMBERS } from '@outpost/contract/limits';
import { cn } from '../../lib/cn';

/** Up to `max` page numbers centred on the current page (spec: core §2 shared list toolbar). */
export function pageWindow(current: number, totalPages: number, max = PAGER_MAX_NUMBERS): number[] {
  if (totalPages <= 0) {
    return [];
  }
  const count = Math.min(max, totalPages);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, totalPages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

export function Pager({
  page,
  totalPages,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}) {
  if (totalPages <= 1) {
    return null;
  }
  const pages = pageWindow(page, totalPages);
  const btn =
    'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <nav aria-label="Pagination" className="flex items-center gap-1">
      <button
        type="button"
        aria-label="Previous page"
        className={cn(btn, 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800')}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        <ChevronLeft className="size-4" />
      </button>
      {pages.map((p) => (
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
      ))}
      {totalPages > PAGER_MAX_NUMBERS && (
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
