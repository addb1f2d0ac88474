import { Monitor, Search } from 'lucide-react';
import type { GroupFilterInput } from '@outpost/contract/groups';
import { StatusBadge } from '../../../components/ui/badge';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useGroupPreview } from '../api/groups';
import { completeFilter, filterProblem } from '../lib/conditions';

/** How long the builder waits after a change before it asks for a new preview. */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * The live preview beside the condition builder (docs/product/device-sets.md#groups "Live
 * preview"): how many devices the filter matches now among those the user may see, and the first
 * ten. Asked for once the user pauses and only while every condition is complete.
 */
export function GroupPreview({ filter, siteId }: { filter: GroupFilterInput; siteId: number | null }) {
  const debounced = useDebouncedValue(filter, PREVIEW_DEBOUNCE_MS);
  const complete = completeFilter(debounced);
  const preview = useGroupPreview(complete ? { filter: complete, site_id: siteId } : null);
  const problem = filterProblem(filter);
  const data = preview.data;
  const isStale = !complete || preview.isFetching || debounced !== filter;

  return (
    <aside
      aria-label="Live preview"
      aria-busy={preview.isFetching}
      className="flex h-full flex-col rounded-lg bg-white ring-1 ring-slate-200 ring-inset dark:bg-slate-950 dark:ring-slate-800"
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Live preview</h3>
        {preview.isFetching && <Spinner label="Updating preview" />}
      </div>
      <div className="px-4 py-3">
        {problem ? (
          <p className="flex items-start gap-2 text-sm text-slate-500 dark:text-slate-400">
            <Search className="mt-0.5 size-4 shrink-0" aria-hidden />
            {problem}
          </p>
        ) : preview.isError ? (
          <p className="text-sm text-red-600 dark:text-red-400">
            {errorMessage(preview.error, 'The preview failed')}
          </p>
        ) : (
          <p className={isStale ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
            <span
              className="text-3xl font-semibold tabular-nums text-slate-900 dark:text-white"
              data-testid="group-preview-count"
            >
              {data ? data.count.toLocaleString() : '—'}
            </span>
            <span className="ml-2 text-sm text-slate-500 dark:text-slate-400">
              matching device{data?.count === 1 ? '' : 's'} now
            </span>
          </p>
        )}
      </div>
      {!problem && data && data.devices.length > 0 && (
        <ul className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto border-t border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {data.devices.map((d) => (
            <li key={d.id} className="flex items-center gap-2 px-4 py-2 text-sm">
              <Monitor className="size-4 shrink-0 text-slate-400" aria-hidden />
              <span className="min-w-0 flex-1 truncate text-slate-800 dark:text-slate-100">
                {d.hostname ?? `Device ${d.id}`}
              </span>
              <StatusBadge status={d.status} />
            </li>
          ))}
          {data.count > data.devices.length && (
            <li className="px-4 py-2 text-xs text-slate-500 dark:text-slate-400">
              and {(data.count - data.devices.length).toLocaleString()} more
            </li>
          )}
        </ul>
      )}
    </aside>
  );
}
