import { useState } from 'react';
import { LineChart } from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import { METRIC_RANGES, METRIC_RANGE_LABELS, metricMessages } from '@outpost/contract/metrics';
import type { MetricRange } from '@outpost/contract/metrics';
import { QueryState } from '../../../../components/ui/states';
import { errorMessage } from '../../../../lib/api-client';
import { cn } from '../../../../lib/cn';
import { relativeTime } from '../../../../lib/format';
import { useDeviceMetrics } from '../../api/get-device-metrics';
import { ChecksCard } from './checks-card';
import { MetricChart } from './metric-chart';
import type { ChartTone } from './metric-chart';
import { VolumeBars } from './volume-bars';

// The device detail's Monitoring tab (docs/product/monitoring.md#the-monitoring-tab): the checks,
// then CPU, memory and disk over 24 hours, 7 days or 30 days, and the latest volumes. Loaded
// lazily by the device page, so its code is fetched only when the tab opens.

const tones: Record<'cpu' | 'memory' | 'disk', ChartTone> = {
  cpu: {
    line: 'stroke-indigo-500 dark:stroke-indigo-400',
    band: 'fill-indigo-500/15 dark:fill-indigo-400/20',
    dot: 'bg-indigo-500 dark:bg-indigo-400',
  },
  memory: {
    line: 'stroke-sky-500 dark:stroke-sky-400',
    band: 'fill-sky-500/15 dark:fill-sky-400/20',
    dot: 'bg-sky-500 dark:bg-sky-400',
  },
  disk: {
    line: 'stroke-amber-500 dark:stroke-amber-400',
    band: 'fill-amber-500/15 dark:fill-amber-400/20',
    dot: 'bg-amber-500 dark:bg-amber-400',
  },
};

function RangeControl({ value, onChange }: { value: MetricRange; onChange: (r: MetricRange) => void }) {
  return (
    <div
      role="radiogroup"
      aria-label="Range"
      className="inline-flex rounded-lg bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/60 dark:ring-slate-700"
    >
      {METRIC_RANGES.map((r) => {
        const isOn = r === value;
        return (
          <button
            key={r}
            type="button"
            role="radio"
            aria-checked={isOn}
            onClick={() => onChange(r)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors',
              isOn
                ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
            )}
          >
            {METRIC_RANGE_LABELS[r]}
          </button>
        );
      })}
    </div>
  );
}

export default function MonitoringTab({ device }: { device: Device }) {
  const [range, setRange] = useState<MetricRange>('24h');
  const query = useDeviceMetrics(device.device_guid, range);
  const data = query.data;
  // the chart's window ends when the answer was fetched, so the lines end at the right edge
  const now = query.dataUpdatedAt;
  return (
    <div className="space-y-6">
      <ChecksCard deviceGuid={device.device_guid} />
      <section aria-labelledby="metrics-heading" className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="metrics-heading" className="text-base font-semibold text-slate-900 dark:text-white">
              Performance
            </h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              {data?.latest_at
                ? `Sampled every minute · last sample ${relativeTime(data.latest_at).toLowerCase()}`
                : 'Sampled every minute by the agent'}
            </p>
          </div>
          <RangeControl value={range} onChange={setRange} />
        </div>
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, metricMessages.metricsLoad) : null}
          errorTitle={metricMessages.metricsLoad}
          onRetry={() => void query.refetch()}
          isEmpty={!data}
          loadingLabel="Loading metrics"
          empty={{ icon: <LineChart className="size-6" />, title: 'No metrics yet' }}
        >
          {data && (
            <div className="grid gap-4 xl:grid-cols-2">
              <MetricChart title="CPU" metric="cpu" data={data} range={range} now={now} tone={tones.cpu} />
              <MetricChart
                title="Memory"
                metric="memory"
                data={data}
                range={range}
                now={now}
                tone={tones.memory}
              />
              <MetricChart
                title="Disk (fullest volume)"
                metric="disk"
                data={data}
                range={range}
                now={now}
                tone={tones.disk}
              />
              <VolumeBars volumes={data.volumes} latestAt={data.latest_at} />
            </div>
          )}
        </QueryState>
      </section>
    </div>
  );
}
