import { ArrowDownToLine, ArrowUpFromLine, X } from 'lucide-react';
import { formatBytes } from '@outpost/contract/files';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { TrackedTransfer } from '../lib/use-file-transfers';

// The transfers of this visit under the Files tab's listing: direction, path, state, Cancel while
// it runs, the reason when it failed.

function state(t: TrackedTransfer): { label: string; tone: Tone } {
  if (t.status === 'failed') {
    return { label: 'Failed', tone: 'red' };
  }
  if (t.status === 'cancelled') {
    return { label: 'Cancelled', tone: 'gray' };
  }
  if (t.status === 'completed') {
    return { label: t.direction === 'download' ? 'Downloaded' : 'Uploaded', tone: 'green' };
  }
  if (t.status === 'ready' || t.saving) {
    return { label: 'Saving…', tone: 'yellow' };
  }
  return {
    label: t.direction === 'download' ? 'Copying from the device…' : 'Copying to the device…',
    tone: 'yellow',
  };
}

export function FileTransfersList({
  transfers,
  onCancel,
}: {
  transfers: TrackedTransfer[];
  onCancel: (t: TrackedTransfer) => void;
}) {
  if (transfers.length === 0) {
    return null;
  }
  return (
    <div className="border-t border-slate-200 dark:border-slate-800">
      <h3 className="px-4 pt-3 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        Transfers
      </h3>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800/80" aria-label="Transfers">
        {transfers.map((t) => {
          const s = state(t);
          const running = t.status === 'pending';
          const Icon = t.direction === 'download' ? ArrowDownToLine : ArrowUpFromLine;
          return (
            <li key={t.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm">
              <Icon className="size-4 shrink-0 text-slate-400" aria-hidden />
              <span className="min-w-0 flex-1 truncate text-slate-700 dark:text-slate-200" title={t.path}>
                {t.path}
              </span>
              {t.size !== null && (
                <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
                  {formatBytes(t.size)}
                </span>
              )}
              <span className="inline-flex items-center gap-1.5" role="status">
                {(running || t.saving) && <Spinner className="size-3.5" />}
                <Badge tone={s.tone}>{s.label}</Badge>
              </span>
              {running && (
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<X className="size-3.5" />}
                  onClick={() => onCancel(t)}
                >
                  Cancel
                </Button>
              )}
              {t.error && t.status === 'failed' && (
                <p className="w-full pl-7 text-xs text-red-600 dark:text-red-400">{t.error}</p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
