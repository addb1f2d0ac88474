import type { DeviceActivityRow, UtilizationBand } from '@outpost/contract/activity';
import { UTILIZATION_BANDS, utilizationBand } from '@outpost/contract/activity';

// The Device Activity overview's filtering, sorting and summaries, done on the loaded rows
// (spec: operations §2.11, §4 Device activity, §9).

export type SortKey =
  'device' | 'site' | 'sessions' | 'utilization_7d' | 'utilization_14d' | 'utilization_30d';
export type SortDirection = 'asc' | 'desc';
export type Sort = { key: SortKey; direction: SortDirection };

/** Default: 30-day utilisation, descending. */
export const DEFAULT_SORT: Sort = { key: 'utilization_30d', direction: 'desc' };

/** Clicking the active sort column toggles direction; clicking another column sorts descending. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) {
    return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  }
  return { key, direction: 'desc' };
}

export type UtilizationFilter = '' | UtilizationBand;
export type SessionsFilter = '' | 'active' | 'inactive';
export type Filters = { search: string; utilization: UtilizationFilter; sessions: SessionsFilter };
export const NO_FILTERS: Filters = { search: '', utilization: '', sessions: '' };

export const UTILIZATION_FILTER_OPTIONS: { value: UtilizationFilter; label: string }[] = [
  { value: '', label: 'All Utilization' },
  ...UTILIZATION_BANDS.map((b) => ({ value: b.key, label: b.label })),
];
export const SESSIONS_FILTER_OPTIONS: { value: SessionsFilter; label: string }[] = [
  { value: '', label: 'All Sessions' },
  { value: 'active', label: 'Active Today' },
  { value: 'inactive', label: 'Inactive Today' },
];

export const hasActiveFilters = (f: Filters) =>
  f.search.trim() !== '' || f.utilization !== '' || f.sessions !== '';

/** The device's name, falling back to 'Device {agent_id}'. */
export const deviceLabel = (row: Pick<DeviceActivityRow, 'device_name' | 'agent_id'>) =>
  row.device_name?.trim() || `Device ${row.agent_id}`;

/** The site's name, falling back to 'No site'. */
export const siteLabel = (row: Pick<DeviceActivityRow, 'site_name'>) => row.site_name?.trim() || 'No site';

export const isActiveToday = (row: DeviceActivityRow) => row.login_sessions_today > 0;

/**
 * Search (device or site name, case-insensitive), the utilisation band (of the 30-day figure,
 * as the distribution and the High Utilization counter) and today's sessions, all combined.
 */
export function filterRows(rows: readonly DeviceActivityRow[], f: Filters): DeviceActivityRow[] {
  const term = f.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!term ||
        deviceLabel(row).toLowerCase().includes(term) ||
        (row.site_name ?? '').toLowerCase().includes(term)) &&
      (!f.utilization || utilizationBand(row.utilization_30d) === f.utilization) &&
      (!f.sessions || (f.sessions === 'active') === isActiveToday(row)),
  );
}

const compareText = (a: string, b: string) =>
  a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });

function compareBy(key: SortKey, a: DeviceActivityRow, b: DeviceActivityRow): number {
  switch (key) {
    case 'device':
      return compareText(deviceLabel(a), deviceLabel(b));
    case 'site':
      return compareText(siteLabel(a), siteLabel(b));
    case 'sessions':
      return a.login_sessions_today - b.login_sessions_today;
    case 'utilization_7d':
    case 'utilization_14d':
    case 'utilization_30d':
      return a[key] - b[key];
  }
}

/** A new sorted list; ties keep a stable order by device name, then agent id. */
export function sortRows(rows: readonly DeviceActivityRow[], sort: Sort): DeviceActivityRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort(
    (a, b) =>
      sign * compareBy(sort.key, a, b) ||
      compareText(deviceLabel(a), deviceLabel(b)) ||
      a.agent_id - b.agent_id,
  );
}

export type OverviewSummary = {
  total: number;
  activeToday: number;
  inactiveToday: number;
  totalSessionsToday: number;
  highUtilization30d: number;
  /** devices per band of the 30-day utilisation, in the bands' order */
  distribution: { key: UtilizationBand; label: string; count: number; share: number }[];
  averages: { utilization_7d: number; utilization_14d: number; utilization_30d: number };
};

const mean = (values: number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0);

/** The counters and cards, over every loaded device (the filters narrow the table only). */
export function summarize(rows: readonly DeviceActivityRow[]): OverviewSummary {
  const counts = new Map<UtilizationBand, number>();
  for (const row of rows) {
    const band = utilizationBand(row.utilization_30d);
    counts.set(band, (counts.get(band) ?? 0) + 1);
  }
  const activeToday = rows.filter(isActiveToday).length;
  return {
    total: rows.length,
    activeToday,
    inactiveToday: rows.length - activeToday,
    totalSessionsToday: rows.reduce((s, r) => s + r.login_sessions_today, 0),
    highUtilization30d: counts.get('high') ?? 0,
    distribution: UTILIZATION_BANDS.map((b) => {
      const count = counts.get(b.key) ?? 0;
      return { key: b.key, label: b.label, count, share: rows.length ? (count / rows.length) * 100 : 0 };
    }),
    averages: {
      utilization_7d: mean(rows.map((r) => r.utilization_7d)),
      utilization_14d: mean(rows.map((r) => r.utilization_14d)),
      utilization_30d: mean(rows.map((r) => r.utilization_30d)),
    },
  };
}

/** Utilisation to one decimal, e.g. '72.5%' (spec: operations §9). */
export const formatUtilization = (percent: number) => `${percent.toFixed(1)}%`;

/** A bar's width: the percentage capped to 0..100. */
export const barWidth = (percent: number) => Math.min(100, Math.max(0, percent));

/** The colours of each band: text, bar fill, and a soft background for chips. */
export const BAND_STYLES: Record<UtilizationBand, { text: string; bar: string; soft: string }> = {
  high: {
    text: 'text-emerald-700 dark:text-emerald-400',
    bar: 'bg-emerald-500',
    soft: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-400',
  },
  good: {
    text: 'text-sky-700 dark:text-sky-400',
    bar: 'bg-sky-500',
    soft: 'bg-sky-50 text-sky-700 dark:bg-sky-500/10 dark:text-sky-400',
  },
  moderate: {
    text: 'text-amber-700 dark:text-amber-400',
    bar: 'bg-amber-500',
    soft: 'bg-amber-50 text-amber-800 dark:bg-amber-500/10 dark:text-amber-400',
  },
  low: {
    text: 'text-rose-700 dark:text-rose-400',
    bar: 'bg-rose-500',
    soft: 'bg-rose-50 text-rose-700 dark:bg-rose-500/10 dark:text-rose-400',
  },
};
