import { z } from 'zod';
import { ActivityLogEntry } from './devices';
import { ACTIVITY_CHART_SLOTS, ACTIVITY_WINDOW_DAYS } from './limits';

// Device activity (spec: core §2 Device detail Device Activity tab, §3 activity entities, §7
// device activity calls, §9; operations §2.11, §3 Device activity row, §4, §7, §8, §9).

export { ActivityLogEntry };
export { ACTIVITY_EVENT_TYPES, ActivityEventType } from './devices';

/** The longest window any activity call reads (the overview's 30-day utilisation). */
export const ACTIVITY_MAX_DAYS = 30;
export const ACTIVITY_WEEKLY_DAYS = 7;
export { ACTIVITY_CHART_SLOTS, ACTIVITY_WINDOW_DAYS };

/** GET /customer/device-activity/device/{id}?days=7 (core §7: days defaults to 7). */
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
 * core §3 Activity chart slot; …/chart returns 12 slots ending with the current hour (UTC),
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

/** core §3 Weekly summary row: the last 7 UTC days, oldest first, today last. */
export const WeeklySummaryRow = z.object({
  day_name: z.string(),
  activity_date: z.string(),
  total_sessions: z.number().int(),
  total_login_hours: z.number(),
});
export type WeeklySummaryRow = z.infer<typeof WeeklySummaryRow>;
export const WeeklySummaryResponse = z.array(WeeklySummaryRow);
export type WeeklySummaryResponse = z.infer<typeof WeeklySummaryResponse>;

/** operations §3 Device activity row (GET /customer/device-activity/overview). */
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

// ---------- bands and messages (operations §4, §8, §9) ----------

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
} as const;
