import type { MetricPoint, MetricRange } from '@outpost/contract/metrics';

// The Monitoring tab's chart geometry (docs/product/monitoring.md#the-monitoring-tab), pure so the
// unit tests call it: the time window of a range, the runs of points between gaps (a device that
// sent nothing for a while is a break in the line, not a slope), SVG paths, ticks and labels.

export type MetricKey = 'cpu' | 'memory' | 'disk';
/** the value and its peak (null when the series has none) at one time */
export type SeriesPoint = { t: number; value: number; max: number | null };

const RANGE_MS: Record<MetricRange, number> = {
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** The window a chart shows: the range's length, ending now. */
export function chartWindow(range: MetricRange, now: number): { from: number; to: number } {
  return { from: now - RANGE_MS[range], to: now };
}

const maxKey: Record<MetricKey, keyof MetricPoint | null> = {
  cpu: 'cpu_max',
  memory: 'memory_max',
  disk: null,
};

/** The points of one metric, oldest first, without those that have no value. */
export function seriesOf(points: MetricPoint[], key: MetricKey): SeriesPoint[] {
  const peak = maxKey[key];
  const out: SeriesPoint[] = [];
  for (const p of points) {
    const value = p[key];
    if (value === null) {
      continue;
    }
    const max = peak ? (p[peak] as number | null) : null;
    out.push({ t: Date.parse(p.at), value, max: max === null ? null : Math.max(max, value) });
  }
  return out;
}

/** Runs of points with no gap longer than two and a half steps between neighbours. */
export function segments(series: SeriesPoint[], stepSeconds: number): SeriesPoint[][] {
  const limit = stepSeconds * 1000 * 2.5;
  const runs: SeriesPoint[][] = [];
  let run: SeriesPoint[] = [];
  for (const p of series) {
    const last = run[run.length - 1];
    if (last && p.t - last.t > limit) {
      runs.push(run);
      run = [];
    }
    run.push(p);
  }
  if (run.length > 0) {
    runs.push(run);
  }
  return runs;
}

export type Frame = { from: number; to: number; width: number; height: number };
const xOf = (f: Frame, t: number) => ((t - f.from) / (f.to - f.from)) * f.width;
const yOf = (f: Frame, v: number) => f.height - (Math.min(100, Math.max(0, v)) / 100) * f.height;
const num = (n: number) => Number(n.toFixed(2));

/** The line through a run (a lone point is a short dash, so it stays visible). */
export function linePath(run: SeriesPoint[], f: Frame): string {
  if (run.length === 1) {
    const [p] = run as [SeriesPoint];
    const x = xOf(f, p.t);
    return `M${num(x - 2)},${num(yOf(f, p.value))}H${num(x + 2)}`;
  }
  return run.map((p, i) => `${i === 0 ? 'M' : 'L'}${num(xOf(f, p.t))},${num(yOf(f, p.value))}`).join('');
}

/** The band between a run's values and its peaks, or null when the run has no peaks. */
export function bandPath(run: SeriesPoint[], f: Frame): string | null {
  if (run.length < 2 || run.every((p) => p.max === null)) {
    return null;
  }
  const top = run.map((p, i) => `${i === 0 ? 'M' : 'L'}${num(xOf(f, p.t))},${num(yOf(f, p.max ?? p.value))}`);
  const bottom = [...run].reverse().map((p) => `L${num(xOf(f, p.t))},${num(yOf(f, p.value))}`);
  return `${top.join('')}${bottom.join('')}Z`;
}

/** The point nearest to `t` (binary search over the sorted series), or null past half a gap. */
export function nearest(series: SeriesPoint[], t: number, stepSeconds: number): SeriesPoint | null {
  let lo = 0;
  let hi = series.length - 1;
  if (hi < 0) {
    return null;
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((series[mid] as SeriesPoint).t < t) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const after = series[lo] as SeriesPoint;
  const before = series[lo - 1];
  const best = before && t - before.t < after.t - t ? before : after;
  return Math.abs(best.t - t) <= stepSeconds * 1000 * 1.5 ? best : null;
}

/** Times for the x axis labels: every 4 hours (24 h), every day (7 d), every 5 days (30 d), local. */
export function timeTicks(range: MetricRange, from: number, to: number): number[] {
  const hour = 3_600_000;
  const ticks: number[] = [];
  const start = new Date(from);
  if (range === '24h') {
    start.setMinutes(0, 0, 0);
    start.setHours(Math.ceil((start.getHours() + 1) / 4) * 4);
  } else {
    start.setHours(24, 0, 0, 0);
  }
  const everyDays = range === '30d' ? 5 : 1;
  for (let t = start.getTime(); t < to;) {
    ticks.push(t);
    const d = new Date(t);
    if (range === '24h') {
      d.setTime(t + 4 * hour);
    } else {
      d.setDate(d.getDate() + everyDays);
    }
    t = d.getTime();
  }
  return ticks;
}

export function tickLabel(range: MetricRange, t: number): string {
  const d = new Date(t);
  return range === '24h'
    ? d.toLocaleTimeString(undefined, { hour: 'numeric' })
    : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

export const formatPercent = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${v >= 10 || v === 0 ? Math.round(v) : v.toFixed(1)} %`;

/** The latest value and the range's peak, for the chart's header. */
export function summary(series: SeriesPoint[]): { latest: number | null; peak: number | null } {
  if (series.length === 0) {
    return { latest: null, peak: null };
  }
  const peak = series.reduce((m, p) => Math.max(m, p.max ?? p.value), 0);
  return { latest: (series[series.length - 1] as SeriesPoint).value, peak };
}

/** A check's state as the tab names it: no state yet is Pending. */
export function checkStateLabel(
  state: 'passing' | 'warning' | 'failing' | null,
): 'Passing' | 'Warning' | 'Failing' | 'Pending' {
  switch (state) {
    case 'passing':
      return 'Passing';
    case 'warning':
      return 'Warning';
    case 'failing':
      return 'Failing';
    case null:
      return 'Pending';
  }
}
