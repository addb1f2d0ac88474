import { z } from 'zod';

// A device's metrics history (docs/product/monitoring.md#metrics): the agent's one-minute samples
// (CPU, memory, each volume's use), kept for 24 hours, and 15-minute points for 30 days.

export const METRIC_RANGES = ['24h', '7d', '30d'] as const;
export type MetricRange = (typeof METRIC_RANGES)[number];
export const METRIC_RANGE_LABELS: Record<MetricRange, string> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
};
export const MINUTE_RETENTION_HOURS = 24;
export const ROLLUP_MINUTES = 15;
export const ROLLUP_RETENTION_DAYS = 30;
/** The most volumes one sample carries. */
export const SAMPLE_VOLUMES_MAX = 32;

export const MetricsQuery = z.object({
  range: z.enum(METRIC_RANGES, { error: 'Range must be 24h, 7d or 30d' }).default('24h'),
});

/** One point: the average over its minute (24 h) or its 15 minutes (7 and 30 days), and the peak. */
export const MetricPoint = z.object({
  at: z.string(),
  cpu: z.number().nullable(),
  cpu_max: z.number().nullable(),
  memory: z.number().nullable(),
  memory_max: z.number().nullable(),
  /** the fullest volume's use in % */
  disk: z.number().nullable(),
});
export type MetricPoint = z.infer<typeof MetricPoint>;

export const VolumeUse = z.object({
  mount: z.string(),
  used_percent: z.number(),
  total_bytes: z.number().nullable(),
  free_bytes: z.number().nullable(),
});
export type VolumeUse = z.infer<typeof VolumeUse>;

export const MetricsResponse = z.object({
  range: z.enum(METRIC_RANGES),
  /** seconds between points: 60 for 24 hours, 900 otherwise */
  step_seconds: z.number().int(),
  points: z.array(MetricPoint),
  /** each volume as the latest sample saw it */
  volumes: z.array(VolumeUse),
  latest_at: z.string().nullable(),
});
export type MetricsResponse = z.infer<typeof MetricsResponse>;

/** The Monitoring tab's load failures (docs/product/monitoring.md#the-monitoring-tab). */
export const metricMessages = {
  metricsLoad: 'Failed to load metrics',
  checksLoad: 'Failed to load checks',
} as const;
