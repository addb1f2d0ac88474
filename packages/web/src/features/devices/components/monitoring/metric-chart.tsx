import { useMemo, useRef, useState } from 'react';
import type { PointerEvent } from 'react';
import type { MetricRange, MetricsResponse } from '@outpost/contract/metrics';
import { METRIC_RANGE_LABELS } from '@outpost/contract/metrics';
import { Card } from '../../../../components/ui/card';
import { formatDateTime } from '../../../../lib/format';
import type { MetricKey, SeriesPoint } from '../../lib/metric-series';
import {
  bandPath,
  chartWindow,
  formatPercent,
  linePath,
  nearest,
  segments,
  seriesOf,
  summary,
  tickLabel,
  timeTicks,
} from '../../lib/metric-series';

// One metric over the chosen range (docs/product/monitoring.md#the-monitoring-tab): the average
// as a line, the peak as a band above it, breaks where the device sent nothing, a tooltip under
// the pointer. Hand-written SVG (docs/dependencies.md): the geometry is in lib/metric-series.ts;
// the SVG stretches to its box (non-scaling strokes) and the labels are HTML, so it needs no
// measuring and follows the theme's colours.

const W = 1000;
const H = 100;
const GRID = [0, 25, 50, 75, 100];

export type ChartTone = { line: string; band: string; dot: string };

const leftOf = (from: number, to: number, t: number) => `${((t - from) / (to - from)) * 100}%`;

/** The pointer's moment: a rule, a dot on the line and the values. */
function Hover({
  point,
  from,
  to,
  tone,
  isAverage,
}: {
  point: SeriesPoint;
  from: number;
  to: number;
  tone: ChartTone;
  isAverage: boolean;
}) {
  return (
    <>
      <div
        className="pointer-events-none absolute inset-y-0 w-px bg-slate-400/70 dark:bg-slate-500/70"
        style={{ left: leftOf(from, to, point.t) }}
        aria-hidden
      />
      <div
        className={`pointer-events-none absolute size-2.5 -translate-x-1/2 translate-y-1/2 rounded-full ring-2 ring-white dark:ring-slate-900 ${tone.dot}`}
        style={{ left: leftOf(from, to, point.t), bottom: `${Math.min(100, point.value)}%` }}
        aria-hidden
      />
      <div
        role="tooltip"
        className="pointer-events-none absolute top-1 z-10 w-max rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs shadow-lg dark:border-slate-700 dark:bg-slate-800"
        style={
          (point.t - from) / (to - from) > 0.6
            ? { right: `calc(${100 - ((point.t - from) / (to - from)) * 100}% + 10px)` }
            : { left: `calc(${leftOf(from, to, point.t)} + 10px)` }
        }
      >
        <div className="font-medium text-slate-900 dark:text-white">{formatDateTime(new Date(point.t))}</div>
        <div className="mt-1 text-slate-600 tabular-nums dark:text-slate-300">
          {isAverage ? 'Average' : 'Value'} {formatPercent(point.value)}
          {point.max !== null && <> · Peak {formatPercent(point.max)}</>}
        </div>
      </div>
    </>
  );
}

/** The time labels under the plot. */
function TimeAxis({ range, from, to }: { range: MetricRange; from: number; to: number }) {
  const ticks = timeTicks(range, from, to);
  return (
    <div className="relative mt-1.5 h-4 text-[11px] text-slate-500 dark:text-slate-400" aria-hidden>
      {ticks.map((t, i) => (
        <span
          key={t}
          // every other label on a phone, so they do not run into each other
          className={`absolute -translate-x-1/2 whitespace-nowrap ${i % 2 === 1 ? 'max-sm:hidden' : ''}`}
          style={{ left: leftOf(from, to, t) }}
        >
          {tickLabel(range, t)}
        </span>
      ))}
    </div>
  );
}

export function MetricChart({
  title,
  metric,
  data,
  range,
  now,
  tone,
}: {
  title: string;
  metric: MetricKey;
  data: MetricsResponse;
  range: MetricRange;
  now: number;
  tone: ChartTone;
}) {
  const series = useMemo(() => seriesOf(data.points, metric), [data.points, metric]);
  const runs = useMemo(() => segments(series, data.step_seconds), [series, data.step_seconds]);
  const { from, to } = chartWindow(range, now);
  const frame = { from, to, width: W, height: H };
  const { latest, peak } = summary(series);
  const hasPeaks = series.some((p) => p.max !== null);
  const [hover, setHover] = useState<SeriesPoint | null>(null);
  const plot = useRef<HTMLDivElement>(null);

  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const box = plot.current?.getBoundingClientRect();
    if (!box || box.width === 0) {
      return;
    }
    const t = from + ((e.clientX - box.left) / box.width) * (to - from);
    setHover(nearest(series, t, data.step_seconds));
  };
  const label = `${title} over the last ${METRIC_RANGE_LABELS[range]}: ${
    latest === null ? 'no samples' : `latest ${formatPercent(latest)}, peak ${formatPercent(peak)}`
  }`;

  return (
    <Card className="p-4 sm:p-5" data-testid={`metric-chart-${metric}`}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
        <div className="flex items-baseline gap-3 text-xs text-slate-500 dark:text-slate-400">
          <span>
            Now{' '}
            <span className="text-base font-semibold text-slate-900 tabular-nums dark:text-white">
              {formatPercent(latest)}
            </span>
          </span>
          <span>
            Peak{' '}
            <span className="font-medium text-slate-700 tabular-nums dark:text-slate-200">
              {formatPercent(peak)}
            </span>
          </span>
        </div>
      </div>
      <div className="grid grid-cols-[2.25rem_1fr] gap-x-2">
        <div
          className="relative h-36 text-[11px] text-slate-500 tabular-nums sm:h-40 dark:text-slate-400"
          aria-hidden
        >
          {GRID.map((g) => (
            <span key={g} className="absolute right-0 -translate-y-1/2" style={{ top: `${100 - g}%` }}>
              {g}%
            </span>
          ))}
        </div>
        <div
          ref={plot}
          className="relative h-36 touch-pan-y sm:h-40"
          onPointerMove={onMove}
          onPointerLeave={() => setHover(null)}
        >
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            className="absolute inset-0 size-full overflow-visible"
            role="img"
            aria-label={label}
          >
            {GRID.map((g) => (
              <line
                key={g}
                x1={0}
                x2={W}
                y1={H - g}
                y2={H - g}
                className="stroke-slate-200 dark:stroke-slate-800"
                strokeDasharray={g === 0 ? undefined : '3 3'}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {runs.map((run) => {
              const band = bandPath(run, frame);
              return band ? (
                <path key={`b${run[0]?.t}`} d={band} className={tone.band} stroke="none" />
              ) : null;
            })}
            {runs.map((run) => (
              <path
                key={`l${run[0]?.t}`}
                d={linePath(run, frame)}
                fill="none"
                className={tone.line}
                strokeWidth={1.75}
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </svg>
          {series.length === 0 && (
            <div className="absolute inset-0 flex items-center justify-center text-sm text-slate-500 dark:text-slate-400">
              No samples in the last {METRIC_RANGE_LABELS[range]}
            </div>
          )}
          {hover && (
            <Hover point={hover} from={from} to={to} tone={tone} isAverage={data.step_seconds > 60} />
          )}
        </div>
        <div />
        <TimeAxis range={range} from={from} to={to} />
      </div>
      {hasPeaks && (
        <div className="mt-3 flex gap-4 text-[11px] text-slate-500 dark:text-slate-400" aria-hidden>
          <span className="flex items-center gap-1.5">
            <span className={`h-0.5 w-3 rounded ${tone.dot}`} /> Average
          </span>
          <span className="flex items-center gap-1.5">
            <span className={`h-2 w-3 rounded-sm ${tone.dot} opacity-25`} /> Peak
          </span>
        </div>
      )}
    </Card>
  );
}
