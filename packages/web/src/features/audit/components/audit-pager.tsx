import { useId, useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { auditPages, hasGoToPage, parseGoToPage } from '../lib/audit-format';

const btn =
  'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-40';
const plain = 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';

// docs/product/activity.md#audit-log audit pager — hidden with one page or fewer; first and last page, two
// either side of the current and ellipses; a go-to-page box above 5 pages (docs/product/activity.md#audit-log: whole numbers
// 1..total, applied on Enter then cleared, otherwise ignored); 'Page X of Y' on small screens.
export function AuditPager({
  page,
  totalPages,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}) {
  const [goTo, setGoTo] = useState('');
  const goToId = useId();
  if (totalPages <= 1) {
    return null;
  }
  const prev = (
    <button
      type="button"
      aria-label="Previous page"
      className={cn(btn, plain)}
      disabled={page <= 1}
      onClick={() => onPageChange(page - 1)}
    >
      <ChevronLeft className="size-4" />
    </button>
  );
  const next = (
    <button
      type="button"
      aria-label="Next page"
      className={cn(btn, plain)}
      disabled={page >= totalPages}
      onClick={() => onPageChange(page + 1)}
    >
      <ChevronRight className="size-4" />
    </button>
  );
  return (
    <nav aria-label="Audit log pages" className="flex items-center gap-3">
      <div className="flex items-center gap-1 sm:hidden">
        {prev}
        <span className="px-2 text-sm text-slate-600 dark:text-slate-300">
          Page {page} of {totalPages}
        </span>
        {next}
      </div>
      <div className="hidden items-center gap-1 sm:flex">
        {prev}
        {auditPages(page, totalPages).map((p, i) =>
          p === 'gap' ? (
            <span key={`gap-${i}`} className="px-1 text-slate-500 dark:text-slate-400" aria-hidden>
              …
            </span>
          ) : (
            <button
              key={p}
              type="button"
              aria-current={p === page ? 'page' : undefined}
              aria-label={`Page ${p}`}
              onClick={() => onPageChange(p)}
              className={cn(btn, p === page ? 'bg-indigo-600 text-white shadow-sm' : plain)}
            >
              {p}
            </button>
          ),
        )}
        {next}
      </div>
      {hasGoToPage(totalPages) && (
        <div className="hidden items-center gap-2 sm:flex">
          <label htmlFor={goToId} className="text-sm whitespace-nowrap text-slate-500 dark:text-slate-400">
            Go to
          </label>
          <input
            id={goToId}
            inputMode="numeric"
            placeholder="#"
            aria-label={`Go to page (1 to ${totalPages})`}
            value={goTo}
            onChange={(e) => setGoTo(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') {
                return;
              }
              e.preventDefault();
              const target = parseGoToPage(goTo, totalPages);
              if (target !== null) {
                onPageChange(target);
                setGoTo('');
              }
            }}
            className="h-8 w-16 rounded-md border-0 bg-white px-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:ring-inset dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700"
          />
        </div>
      )}
    </nav>
  );
}
