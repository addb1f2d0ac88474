import type { ScriptRunCounts } from '@outpost/contract/script-runs';
import { cn } from '../../../lib/cn';

// docs/product/scripts.md#results — a run's devices: succeeded, failed, running, waiting, of all.

const parts = [
  { key: 'succeeded', label: 'Succeeded', tone: 'text-emerald-700 dark:text-emerald-400' },
  { key: 'failed', label: 'Failed', tone: 'text-red-700 dark:text-red-400' },
  { key: 'running', label: 'Running', tone: 'text-sky-700 dark:text-sky-400' },
  { key: 'pending', label: 'Waiting', tone: 'text-slate-600 dark:text-slate-400' },
] as const;

export function RunCounters({ counts, compact }: { counts: ScriptRunCounts; compact?: boolean }) {
  if (compact) {
    return (
      <span className="text-sm whitespace-nowrap text-slate-600 dark:text-slate-300">
        <span className="font-medium text-emerald-700 dark:text-emerald-400">
          {counts.succeeded} of {counts.total} succeeded
        </span>
        {counts.failed > 0 && (
          <span className="font-medium text-red-700 dark:text-red-400"> · {counts.failed} failed</span>
        )}
        {counts.running > 0 && (
          <span className="text-sky-700 dark:text-sky-400"> · {counts.running} running</span>
        )}
      </span>
    );
  }
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="run-counters">
      <div className="col-span-2 rounded-lg sm:col-span-1 border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
        <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">Devices</dt>
        <dd className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white" data-counter="total">
          {counts.total}
        </dd>
      </div>
      {parts.map((p) => (
        <div
          key={p.key}
          className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{p.label}</dt>
          <dd className={cn('mt-1 text-2xl font-semibold', p.tone)} data-counter={p.key}>
            {counts[p.key]}
          </dd>
        </div>
      ))}
    </dl>
  );
}
