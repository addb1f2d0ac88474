import { z } from 'zod';
import { ActivityLogEntry } from './devices';
import { Pagination } from './envelope';
import { PageParam } from './input';
import { ACTIVITY_CHART_SLOTS, ACTIVITY_PAGE_SIZE, ACTIVITY_WINDOW_DAYS, MAX_PAGE_SIZE } from './limits';

// Device activity (docs/product/activity.md#device-activity-tab, #fields activity entities, #calls
// device activity calls, docs/product/activity.md#limits; #device-activity-overview, #fields, #utilisation, #calls).

export { ActivityLogEntry };
export { ACTIVITY_EVENT_TYPES, ActivityEventType } from './devices';

/** The longest window any activity call reads (the overview's 30-day utilisation). */
export const ACTIVITY_MAX_DAYS = 30;
export const ACTIVITY_WEEKLY_DAYS = 7;
/** The longest search term of the paged overview. */
export const ACTIVITY_SEARCH_MAX = 200;
export { ACTIVITY_CHART_SLOTS, ACTIVITY_WINDOW_DAYS };

/** GET /customer/device-activity/device/{id}?days=7 (docs/product/activity.md#calls: days defaults to 7). */
export const ActivityLogQuery = z.object({
  days: z.coerce
    .number({ error: `days must be a whole number from 1 to ${ACTIVITY_MAX_DAYS}` })
    .int(`days must be a whole number from 1 to ${ACTIVITY_MAX_DAYS}`)
    .min(1, `days must be a whole number from 1 to ${ACTIVITY_MAX_DAYS}`)
    .max(ACTIVITY_MAX_DAYS, `days must be a whole number from 1 to ${ACTIVITY_MAX_DAYS}`)
    .default(ACTIVITY_WINDOW_DAYS),
});
export type ActivityLogQuery = z.input<typeof ActivityLogQuery>;

/** Newest first; the device's events of the last `days` days (UTC timestamps). */
export const ActivityLogResponse = z.array(ActivityLogEntry);
export type ActivityLogResponse = z.infer<typeof ActivityLogResponse>;

/** One user session inside an hourly slot: minutes from the slot's start, and how long. */
export const ChartSession = z.object({
  user: z.string(),
  start_offset: z.number(),
  duration: z.number(),
});
export type ChartSession = z.infer<typeof ChartSession>;

/**
 * docs/product/activity.md#fields; …/chart returns 12 slots ending with the current hour (UTC),
 * oldest first. hour_slot is the slot's start as an ISO timestamp; the current slot counts
 * up to now (is_current), so its percentages are of the time passed.
 */
export const ChartSlot = z.object({
  hour_slot: z.string(),
  online_percentage: z.number(),
  login_minutes: z.number(),
  sessions: z.array(ChartSession),
  is_current: z.boolean(),
});
export type ChartSlot = z.infer<typeof ChartSlot>;
export const ActivityChartResponse = z.array(ChartSlot);
export type ActivityChartResponse = z.infer<typeof ActivityChartResponse>;

/** docs/product/activity.md#fields: the last 7 UTC days, oldest first, today last. */
export const WeeklySummaryRow = z.object({
  day_name: z.string(),
  activity_date: z.string(),
  total_sessions: z.number().int(),
  total_login_hours: z.number(),
});
export type WeeklySummaryRow = z.infer<typeof WeeklySummaryRow>;
export const WeeklySummaryResponse = z.array(WeeklySummaryRow);
export type WeeklySummaryResponse = z.infer<typeof WeeklySummaryResponse>;

/** docs/product/activity.md#fields Device activity row (GET /customer/device-activity/overview). */
export const DeviceActivityRow = z.object({
  agent_id: z.number().int(),
  device_guid: z.string(),
  device_name: z.string().nullable(),
  site_name: z.string().nullable(),
  login_sessions_today: z.number().int(),
  /** logged-in time over online time in the window, percent (0 when never online) */
  utilization_7d: z.number(),
  utilization_14d: z.number(),
  utilization_30d: z.number(),
});
export type DeviceActivityRow = z.infer<typeof DeviceActivityRow>;
export const DeviceActivityOverviewResponse = z.array(DeviceActivityRow);
export type DeviceActivityOverviewResponse = z.infer<typeof DeviceActivityOverviewResponse>;

/** The device's name as shown, falling back to 'Device {agent_id}' (docs/product/activity.md#device-activity-overview). */
export const deviceLabel = (row: Pick<DeviceActivityRow, 'device_name' | 'agent_id'>) =>
  row.device_name?.trim() || `Device ${row.agent_id}`;

/** The site's name as shown, falling back to 'No site'. */
export const siteLabel = (row: Pick<DeviceActivityRow, 'site_name'>) => row.site_name?.trim() || 'No site';

// ---------- bands and messages (docs/product/activity.md#utilisation, #audit-log, #limits) ----------

export const UTILIZATION_BANDS = [
  { key: 'high', label: 'High (80%+)', min: 80 },
  { key: 'good', label: 'Good (60-79%)', min: 60 },
  { key: 'moderate', label: 'Moderate (40-59%)', min: 40 },
  { key: 'low', label: 'Low (<40%)', min: 0 },
] as const;
export type UtilizationBand = (typeof UTILIZATION_BANDS)[number]['key'];

export function utilizationBand(percent: number): UtilizationBand {
  if (percent >= 80) {
    return 'high';
  }
  if (percent >= 60) {
    return 'good';
  }
  return percent >= 40 ? 'moderate' : 'low';
}

export const activityMessages = {
  deviceActivityLoad: 'Failed to load device activity',
  overviewLoad: 'Failed to load device activity overview',
  overviewLoadingText: 'Loading device activity...',
  overviewErrorTitle: 'Error loading device activity',
  noMatchingDevices: 'No matching devices',
  noActivityData: 'No device activity data',
  noActivityHint: 'Device activity will appear here once devices start reporting activity.',
  noMatchHint: 'No devices match your current filters. Try adjusting your search or filters.',
  searchPlaceholder: 'Search devices or sites...',
  limitInvalid: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
  searchTooLong: `search must be at most ${ACTIVITY_SEARCH_MAX} characters`,
} as const;

// ---------- the paged overview (docs/decisions/2026-11-26-device-activity-overview.md) ----------
// The product's call returns every device in scope, filtered and sorted in the browser; at 100,000
// devices that is 20 MB per answer. With any of these parameters the same call answers one page,
// filtered and sorted on the server, with the whole scope's counters and cards beside it.

/** The table's sortable columns (docs/product/activity.md#device-activity-overview), as the `sort` parameter names them. */
export const ACTIVITY_SORT_KEYS = [
  'device',
  'site',
  'sessions',
  'utilization_7d',
  'utilization_14d',
  'utilization_30d',
] as const;
export type ActivitySortKey = (typeof ACTIVITY_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** Default: 30-day utilisation, descending (docs/product/activity.md#device-activity-overview). */
export const ACTIVITY_DEFAULT_SORT = { sort: 'utilization_30d', order: 'desc' } as const;
export const ACTIVITY_SESSIONS_FILTERS = ['active', 'inactive'] as const;
export type ActivitySessionsFilter = (typeof ACTIVITY_SESSIONS_FILTERS)[number];

const UTILIZATION_BAND_KEYS = UTILIZATION_BANDS.map((b) => b.key) as [UtilizationBand, ...UtilizationBand[]];
const oneOf = (name: string, values: readonly string[]) => `${name} must be one of ${values.join(', ')}`;

/**
 * GET /customer/device-activity/overview?page=… Without any of these parameters the call
 * answers the product's full list (DeviceActivityOverviewResponse); with any of them, one page
 * (ActivityOverviewPage; page defaults to 1). Every parameter is optional so that the two modes
 * can be told apart: the defaults are applied by `pagedOverviewQuery`.
 */
export const ActivityOverviewQuery = z.object({
  page: PageParam.unwrap().optional(),
  limit: z.coerce
    .number({ error: activityMessages.limitInvalid })
    .int(activityMessages.limitInvalid)
    .min(1, activityMessages.limitInvalid)
    .max(MAX_PAGE_SIZE, activityMessages.limitInvalid)
    .optional(),
  /** device name as shown, or site name; case-insensitive, part of the name */
  search: z.string().trim().max(ACTIVITY_SEARCH_MAX, activityMessages.searchTooLong).optional(),
  /** the band of the 30-day utilisation */
  utilization: z
    .enum(UTILIZATION_BAND_KEYS, { error: oneOf('utilization', UTILIZATION_BAND_KEYS) })
    .optional(),
  /** active: at least one session today; inactive: none */
  sessions: z
    .enum(ACTIVITY_SESSIONS_FILTERS, { error: oneOf('sessions', ACTIVITY_SESSIONS_FILTERS) })
    .optional(),
  sort: z.enum(ACTIVITY_SORT_KEYS, { error: oneOf('sort', ACTIVITY_SORT_KEYS) }).optional(),
  order: z.enum(SORT_ORDERS, { error: oneOf('order', SORT_ORDERS) }).optional(),
});
export type ActivityOverviewQuery = z.input<typeof ActivityOverviewQuery>;
export type ActivityOverviewParams = z.output<typeof ActivityOverviewQuery>;

/** The paged request with its defaults, or null when the caller asked for the full list. */
export function pagedOverviewQuery(q: ActivityOverviewParams) {
  if (Object.values(q).every((v) => v === undefined)) {
    return null;
  }
  return {
    page: q.page ?? 1,
    limit: q.limit ?? ACTIVITY_PAGE_SIZE,
    search: q.search ?? '',
    utilization: q.utilization ?? null,
    sessions: q.sessions ?? null,
    sort: q.sort ?? ACTIVITY_DEFAULT_SORT.sort,
    order: q.order ?? ACTIVITY_DEFAULT_SORT.order,
  };
}
export type PagedOverviewQuery = NonNullable<ReturnType<typeof pagedOverviewQuery>>;

/**
 * The counters and cards of docs/product/activity.md#device-activity-overview over every device in scope (the filters narrow the
 * table and Showing only; Showing is the page's pagination.total).
 */
export const ActivityOverviewSummary = z.object({
  total_devices: z.number().int(),
  active_today: z.number().int(),
  inactive_today: z.number().int(),
  total_sessions_today: z.number().int(),
  high_utilization_30d: z.number().int(),
  /** devices per band of the 30-day utilisation, in UTILIZATION_BANDS order */
  distribution: z.array(z.object({ band: z.enum(UTILIZATION_BAND_KEYS), count: z.number().int() })),
  /** the mean of the devices' utilisation per window, unrounded (0 without devices) */
  average_utilization: z.object({
    utilization_7d: z.number(),
    utilization_14d: z.number(),
    utilization_30d: z.number(),
  }),
});
export type ActivityOverviewSummary = z.infer<typeof ActivityOverviewSummary>;

/** One page of the overview: the rows, the filtered count (pagination.total), the summary. */
export const ActivityOverviewPage = z.object({
  data: z.array(DeviceActivityRow),
  pagination: Pagination,
  summary: ActivityOverviewSummary,
});
export type ActivityOverviewPage = z.infer<typeof ActivityOverviewPage>;
