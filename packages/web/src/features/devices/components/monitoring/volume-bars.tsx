import type { VolumeUse } from '@outpost/contract/metrics';
import { Card } from '../../../../components/ui/card';
import { cn } from '../../../../lib/cn';
import { formatGb } from '../../../../lib/format';
import { formatPercent } from '../../lib/metric-series';
import { storageLevel } from '../storage-bar';

// Each volume as the latest sample saw it (docs/product/monitoring.md#the-monitoring-tab), coloured
// like the Overview's storage: green, yellow above 75 %, red above 90 %.

const colours = { ok: 'bg-emerald-500', warning: 'bg-amber-400', critical: 'bg-red-500' };

export function VolumeBars({ volumes, latestAt }: { volumes: VolumeUse[]; latestAt: string | null }) {
  return (
    <Card className="p-4 sm:p-5" data-testid="metric-volumes">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Volumes</h3>
        <span className="text-xs text-slate-500 dark:text-slate-400">Latest sample</span>
      </div>
      {volumes.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">
          {latestAt ? 'The agent reported no volumes.' : 'No samples yet.'}
        </p>
      ) : (
        <ul className="space-y-3.5">
          {volumes.map((v) => {
            const level = storageLevel(v.used_percent);
            return (
              <li key={v.mount} data-level={level}>
                <div className="mb-1 flex items-baseline justify-between gap-3 text-sm">
                  <span className="truncate font-mono text-xs font-medium text-slate-900 dark:text-white">
                    {v.mount}
                  </span>
                  <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">
                    {v.free_bytes !== null && v.total_bytes !== null
                      ? `${formatGb(v.free_bytes)} free of ${formatGb(v.total_bytes)} · `
                      : ''}
                    <span className="font-medium text-slate-700 dark:text-slate-200">
                      {formatPercent(v.used_percent)}
                    </span>
                  </span>
                </div>
                <div
                  className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
                  role="meter"
                  aria-label={`${v.mount} used`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(v.used_percent)}
                >
                  <div
                    className={cn('h-full rounded-full', colours[level])}
                    style={{ width: `${Math.min(100, v.used_percent)}%` }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
