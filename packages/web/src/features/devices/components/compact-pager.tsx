import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '../../../lib/cn';

/** spec: core §2 Software — first, last and the current page plus or minus one, with gaps. */
export function compactPages(current: number, totalPages: number): (number | 'gap')[] {
  const pages = new Set([1, totalPages, current - 1, current, current + 1]);
  const list = [...pages].filter((p) => p >= 1 && p <= totalPages).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  list.forEach((p, i) => {
    if (i > 0 && p - list[i - 1]! > 1) {
      out.push('gap');
    }
    out.push(p);
  });
  return out;
}

export function CompactPager({
  page,
  totalPages,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  onPageChange: (p: number) => void;
}) {
  if (totalPages <= 1) {
    return null;
  }
  const btn =
    'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-40';
  const idle = 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';
  return (
    <nav aria-label="Software pages" className="flex items-center gap-1">
      <button
        type="button"
        aria-label="Previous page"
        className={cn(btn, idle)}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        <ChevronLeft className="size-4" />
      </button>
      {compactPages(page, totalPages).map((p, i) =>
        p === 'gap' ? (
          <span key={`gap-${i}`} className="px-1 text-slate-400">
            …
          </span>
        ) : (
          <button
            key={p}
            type="button"
            aria-current={p === page ? 'page' : undefined}
            onClick={() => onPageChange(p)}
            className={cn(btn, p === page ? 'bg-indigo-600 text-white shadow-sm' : idle)}
          >
            {p}
          </button>
        ),
      )}
      <button
        type="button"
        aria-label="Next page"
        className={cn(btn, idle)}
        disabled={page >= totalPages}
        onClick={() => onPageChange(page + 1)}
      >
        <ChevronRight className="size-4" />
      </button>
    </nav>
  );
}
