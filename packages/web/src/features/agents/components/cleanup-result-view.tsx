import { CheckCircle2 } from 'lucide-react';
import type { CleanupResult } from '@outpost/contract/device-cleanup';
import { cleanupMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';

/** What a cleanup removed, and the duplicate sets left for the administrator to review. */
export function CleanupResultView({ result }: { result: CleanupResult }) {
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <CheckCircle2 className="size-6 text-emerald-500" />
        <p className="text-sm font-medium text-slate-900 dark:text-white">
          {result.removed === 0
            ? 'Nothing to remove: no agent matched.'
            : `Removed ${result.removed} agent${result.removed === 1 ? '' : 's'}.`}
        </p>
      </div>
      {result.review_sets.length > 0 && (
        <Alert tone="warning">{cleanupMessages.needsReview(result.review_sets.length)}</Alert>
      )}
      {result.devices.length > 0 && (
        <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
          {result.devices.map((d) => (
            <li key={d.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span
                title={d.hostname ?? `Device ${d.id}`}
                className="truncate text-slate-800 dark:text-slate-200"
              >
                {d.hostname ?? `Device ${d.id}`}
              </span>
              <Badge tone={d.reason === 'stale' ? 'gray' : 'yellow'}>
                {d.reason === 'stale' ? 'Offline too long' : 'Duplicate'}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
