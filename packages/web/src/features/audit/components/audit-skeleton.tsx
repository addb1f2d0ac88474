import { cn } from '../../../lib/cn';

const bar = 'animate-pulse rounded bg-slate-200 dark:bg-slate-800';

/** docs/product/activity.md#audit-log — the initial load shows a skeleton of the cards and the table. */
export function AuditSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading audit logs" role="status" className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div
            key={i}
            className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <div className={cn(bar, 'h-3 w-24')} />
            <div className={cn(bar, 'mt-3 h-7 w-16')} />
          </div>
        ))}
      </div>
      <div className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="border-b border-slate-200 p-4 dark:border-slate-800">
          <div className={cn(bar, 'h-9 w-full max-w-md')} />
        </div>
        <div className="divide-y divide-slate-100 dark:divide-slate-800">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="flex items-center gap-6 px-4 py-4">
              <div className={cn(bar, 'h-5 w-28 rounded-full')} />
              <div className="flex-1 space-y-2">
                <div className={cn(bar, 'h-3 w-40')} />
                <div className={cn(bar, 'h-3 w-28')} />
              </div>
              <div className={cn(bar, 'hidden h-3 w-24 md:block')} />
              <div className={cn(bar, 'hidden h-3 w-32 md:block')} />
              <div className={cn(bar, 'h-3 w-20')} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
