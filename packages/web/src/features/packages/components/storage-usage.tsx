import { formatBytes, storageUsedPercent } from '@outpost/contract/files';
import type { StorageUsage } from '@outpost/contract/files';
import { STORAGE_CRITICAL_PERCENT, STORAGE_WARN_PERCENT } from '@outpost/contract/limits';
import { cn } from '../../../lib/cn';
import { useStorageUsage } from '../api/get-storage-usage';

// The organisation's storage quota where files are uploaded (SECURITY.md R2-14): a small bar and
// "X of Y used", amber above 75 % and red above 90 % like the device storage bars.

const tone = (percent: number) =>
  percent > STORAGE_CRITICAL_PERCENT ? 'critical' : percent > STORAGE_WARN_PERCENT ? 'warning' : 'ok';

export function StorageUsageBar({ usage }: { usage: StorageUsage }) {
  const percent = storageUsedPercent(usage);
  const level = tone(percent);
  return (
    <div className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400" data-level={level}>
      <span
        role="meter"
        aria-label="Storage used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-1.5 w-24 shrink-0 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <span
          className={cn(
            'block h-full rounded-full',
            level === 'critical' ? 'bg-red-500' : level === 'warning' ? 'bg-amber-400' : 'bg-emerald-500',
          )}
          style={{ width: `${percent}%` }}
        />
      </span>
      <span
        className={cn('tabular-nums', level === 'critical' && 'font-medium text-red-600 dark:text-red-400')}
      >
        Storage: {formatBytes(usage.used_bytes)} of {formatBytes(usage.quota_bytes)} used
      </span>
    </div>
  );
}

/** The caller's organisation's usage, read from the server; nothing while it loads or fails. */
export function StorageUsageLabel() {
  const query = useStorageUsage();
  return query.data ? <StorageUsageBar usage={query.data} /> : null;
}
