import { STORAGE_CRITICAL_PERCENT, STORAGE_WARN_PERCENT } from '@outpost/contract/limits';
import { cn } from '../../../lib/cn';
import { formatGb } from '../../../lib/format';

export type StorageLevel = 'ok' | 'warning' | 'critical';

/** docs/product/devices.md#device-detail — green up to 75 %, yellow above 75, red above 90. */
export function storageLevel(usedPercent: number): StorageLevel {
  if (usedPercent > STORAGE_CRITICAL_PERCENT) {
    return 'critical';
  }
  return usedPercent > STORAGE_WARN_PERCENT ? 'warning' : 'ok';
}

const colours: Record<StorageLevel, string> = {
  ok: 'bg-emerald-500',
  warning: 'bg-amber-400',
  critical: 'bg-red-500',
};

export function StorageBar({
  label,
  mediaType,
  totalSize,
  freeSpace,
}: {
  label: string;
  mediaType: string;
  totalSize: number;
  freeSpace: number;
}) {
  const used = Math.max(0, totalSize - freeSpace);
  const percent = totalSize > 0 ? (used / totalSize) * 100 : 0;
  const level = storageLevel(percent);
  return (
    <div data-testid="storage-bar" data-level={level}>
      <div className="mb-1.5 flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium text-slate-900 dark:text-white">
          {label}
          {mediaType && (
            <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">{mediaType}</span>
          )}
        </span>
        <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
          {formatGb(used)} of {formatGb(totalSize)} used · {formatGb(freeSpace)} free
        </span>
      </div>
      <div
        role="meter"
        aria-label={`${label} used`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        className="h-2.5 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div
          className={cn('h-full rounded-full transition-all', colours[level])}
          style={{ width: `${Math.min(100, percent)}%` }}
        />
      </div>
      <div
        className={cn(
          'mt-1 text-right text-xs font-medium tabular-nums',
          level === 'critical'
            ? 'text-red-600 dark:text-red-400'
            : level === 'warning'
              ? 'text-amber-600 dark:text-amber-400'
              : 'text-slate-500 dark:text-slate-400',
        )}
      >
        {percent.toFixed(1)}% used
      </div>
    </div>
  );
}
