import type { ReactNode } from 'react';
import { Activity, Gauge, ListFilter, Monitor } from 'lucide-react';
import type { ActivityOverviewSummary } from '@outpost/contract/activity';
import { utilizationBand } from '@outpost/contract/activity';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { BAND_STYLES, bandShares, barWidth, formatUtilization } from '../lib/overview';

// docs/product/activity.md#device-activity-overview counters and cards, over every device in scope (the server's summary).

type OverviewSummary = ActivityOverviewSummary;

function Counter({
  label,
  value,
  icon,
  accent,
}: {
  label: string;
  value: number;
  icon: ReactNode;
  accent: string;
}) {
  return (
    <Card className="flex items-center gap-4 p-4">
      <div className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', accent)}>{icon}</div>
      <div className="min-w-0">
        <p className="text-sm leading-5 font-medium text-slate-500 dark:text-slate-400">{label}</p>
        <p
          className="text-2xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white"
          data-testid={`counter-${label}`}
        >
          {value.toLocaleString()}
        </p>
      </div>
    </Card>
  );
}

export function OverviewCounters({ summary, showing }: { summary: OverviewSummary; showing: number }) {
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <Counter
        label="Total Devices"
        value={summary.total_devices}
        icon={<Monitor className="size-5" />}
        accent="bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400"
      />
      <Counter
        label="Showing"
        value={showing}
        icon={<ListFilter className="size-5" />}
        accent="bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300"
      />
      <Counter
        label="Active Today"
        value={summary.active_today}
        icon={<Activity className="size-5" />}
        accent="bg-sky-50 text-sky-600 dark:bg-sky-500/10 dark:text-sky-400"
      />
      <Counter
        label="High Utilization (30d)"
        value={summary.high_utilization_30d}
        icon={<Gauge className="size-5" />}
        accent="bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400"
      />
    </div>
  );
}

function DistributionCard({ summary }: { summary: OverviewSummary }) {
  return (
    <Card>
      <CardHeader title="Utilization Distribution (30d)" />
      <ul className="space-y-4 px-5 py-4" aria-label="Utilization distribution">
        {bandShares(summary).map((band) => (
          <li key={band.key} data-band={band.key}>
            <div className="flex items-center justify-between gap-3 text-sm">
              <span className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
                <span className={cn('size-2.5 rounded-full', BAND_STYLES[band.key].bar)} aria-hidden />
                {band.label}
              </span>
              <span className="font-medium text-slate-900 tabular-nums dark:text-white">
                {band.count.toLocaleString()}
                <span className="ml-1.5 text-xs font-normal text-slate-500 dark:text-slate-400">
                  ({Math.round(band.share)}%)
                </span>
              </span>
            </div>
            <div
              className="mt-1.5 h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
              role="progressbar"
              aria-label={`${band.label} share`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(band.share)}
            >
              <div
                className={cn('h-full rounded-full transition-[width]', BAND_STYLES[band.key].bar)}
                style={{ width: `${barWidth(band.share)}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function TodayCard({ summary }: { summary: OverviewSummary }) {
  const items = [
    { label: 'Total Sessions', value: summary.total_sessions_today, tone: 'text-slate-900 dark:text-white' },
    { label: 'Active Devices', value: summary.active_today, tone: 'text-emerald-700 dark:text-emerald-400' },
    { label: 'Inactive Devices', value: summary.inactive_today, tone: 'text-slate-500 dark:text-slate-400' },
  ];
  return (
    <Card>
      <CardHeader title="Today's Activity" />
      <dl className="divide-y divide-slate-100 px-5 dark:divide-slate-800">
        {items.map((item) => (
          <div key={item.label} className="flex items-center justify-between gap-4 py-3.5">
            <dt className="text-sm text-slate-500 dark:text-slate-400">{item.label}</dt>
            <dd className={cn('text-xl font-semibold tabular-nums', item.tone)}>
              {item.value.toLocaleString()}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Averages over no devices are no data: shown as a neutral dash, not as a red 0.0 %. */
function TrendsCard({ summary }: { summary: OverviewSummary }) {
  const hasData = summary.total_devices > 0;
  const items = [
    { label: '7 Days', value: summary.average_utilization.utilization_7d },
    { label: '14 Days', value: summary.average_utilization.utilization_14d },
    { label: '30 Days', value: summary.average_utilization.utilization_30d },
  ];
  return (
    <Card>
      <CardHeader title="Average Utilization Trends" />
      <dl className="divide-y divide-slate-100 px-5 dark:divide-slate-800">
        {items.map((item) => {
          const band = hasData ? utilizationBand(item.value) : undefined;
          return (
            <div key={item.label} className="flex items-center justify-between gap-4 py-3.5">
              <dt className="text-sm text-slate-500 dark:text-slate-400">{item.label}</dt>
              <dd
                className={cn(
                  'text-xl font-semibold tabular-nums',
                  band ? BAND_STYLES[band].text : 'text-slate-400 dark:text-slate-500',
                )}
                data-band={band}
                data-testid={`trend-${item.label}`}
              >
                {band ? formatUtilization(item.value) : <span aria-label="No data">–</span>}
              </dd>
            </div>
          );
        })}
      </dl>
    </Card>
  );
}

export function OverviewCards({ summary }: { summary: OverviewSummary }) {
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <DistributionCard summary={summary} />
      <TodayCard summary={summary} />
      <TrendsCard summary={summary} />
    </div>
  );
}
