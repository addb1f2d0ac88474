import { index, integer, jsonb, pgTable, primaryKey, smallint, timestamp } from 'drizzle-orm/pg-core';
import { devices } from './devices';

// A device's metrics history (docs/product/monitoring.md#metrics; why this shape:
// docs/decisions/2026-11-27-metrics-history.md). Written by the metrics module only.
//
// Compact rows for 100,000 devices: times are whole minutes since the Unix epoch (integer), every
// percentage is hundredths of a percent in a smallint (0–10000), no JSON per sample. The BRIN
// indexes on the time columns cost a few pages and serve the rollup's scan and the retention's
// deletes (rows arrive in time order, so block ranges follow time).

/** One-minute samples, kept 24 hours. */
export const deviceMetricMinutes = pgTable(
  'device_metric_minutes',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** minutes since the epoch: the sample's minute */
    minute: integer().notNull(),
    cpu: smallint().notNull(),
    cpuMax: smallint('cpu_max'),
    memory: smallint().notNull(),
    /** the fullest volume's use */
    disk: smallint(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.minute] }),
    index('device_metric_minutes_minute_brin').using('brin', t.minute),
  ],
);

/** Fifteen-minute points (average and peak), kept 30 days. */
export const deviceMetricRollups = pgTable(
  'device_metric_rollups',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** minutes since the epoch of the bucket's start (a multiple of 15) */
    bucket: integer().notNull(),
    cpu: smallint().notNull(),
    cpuMax: smallint('cpu_max').notNull(),
    memory: smallint().notNull(),
    memoryMax: smallint('memory_max').notNull(),
    disk: smallint(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.bucket] }),
    index('device_metric_rollups_bucket_brin').using('brin', t.bucket),
  ],
);

export type StoredVolume = { mount: string; used: number; total: number | null; free: number | null };

/** Each device's volumes as its latest sample saw them (one row per device). */
export const deviceMetricVolumes = pgTable('device_metric_volumes', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  minute: integer().notNull(),
  volumes: jsonb().$type<StoredVolume[]>().notNull(),
});

/**
 * The rollup job's one row: buckets before `rolled_until` (epoch minutes) are rolled up; an
 * instance running the job holds `lease_until`, so only one runs it at a time.
 */
export const metricRollupState = pgTable('metric_rollup_state', {
  id: smallint().primaryKey(),
  rolledUntil: integer('rolled_until').notNull(),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
});
