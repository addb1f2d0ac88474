import type {
  ActivityOverviewSummary,
  ActivitySessionsFilter,
  ActivitySortKey,
  SortOrder,
  UtilizationBand,
} from '@outpost/contract/activity';
import { ACTIVITY_DEFAULT_SORT, UTILIZATION_BANDS } from '@outpost/contract/activity';

// The Device Activity overview's sorting rules, filter options and figures as shown (product rule:
// docs/product/activity.md#device-activity-overview, #utilisation, #limits). Filtering, sorting and paging happen on the server
// (docs/decisions/2026-11-26-device-activity-overview.md); this page sends the arguments and shows the answer.

export type SortKey = ActivitySortKey;
export type SortDirection = SortOrder;
export type Sort = { key: SortKey; direction: SortDirection };

/** Default: 30-day utilisation, descending. */
export const DEFAULT_SORT: Sort = { key: ACTIVITY_DEFAULT_SORT.sort, direction: ACTIVITY_DEFAULT_SORT.order };

/** Clicking the active sort column toggles direction; clicking another column sorts descending. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) {
    return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  }
  return { key, direction: 'desc' };
}

export type UtilizationFilter = '' | UtilizationBand;
export type SessionsFilter = '' | ActivitySessionsFilter;
/** The two selects ('' is All); the search box is kept beside them (use-overview-state.ts). */
export type OverviewFilters = { utilization: UtilizationFilter; sessions: SessionsFilter };
export const NO_FILTERS: OverviewFilters = { utilization: '', sessions: '' };

export const UTILIZATION_FILTER_OPTIONS: { value: UtilizationFilter; label: string }[] = [
  { value: '', label: 'All Utilization' },
  ...UTILIZATION_BANDS.map((b) => ({ value: b.key, label: b.label })),
];
export const SESSIONS_FILTER_OPTIONS: { value: SessionsFilter; label: string }[] = [
  { value: '', label: 'All Sessions' },
  { value: 'active', label: 'Active Today' },
  { value: 'inactive', label: 'Inactive Today' },
];

export type BandShare = { key: UtilizationBand; label: string; count: number; share: number };

/** The distribution card's bands: count and share of all devices, in the bands' order. */
export function bandShares(summary: ActivityOverviewSummary): BandShare[] {
  const counts = new Map(summary.distribution.map((d) => [d.band, d.count]));
  const total = summary.total_devices;
  return UTILIZATION_BANDS.map((b) => {
    const count = counts.get(b.key) ?? 0;
    return { key: b.key, label: b.label, count, share: total ? (count / total) * 100 : 0 };
  });
}

/** Utilisation to one decimal, e.g. '72.5%' (docs/product/activity.md#limits). */
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
