import type { FastifyBaseLogger } from 'fastify';
import type { MetricsMessage } from '@outpost/contract/agent-monitoring';
import { deviceMessages } from '@outpost/contract/messages';
import { MINUTE_RETENTION_HOURS, ROLLUP_MINUTES } from '@outpost/contract/metrics';
import type { MetricPoint, MetricRange, MetricsResponse, VolumeUse } from '@outpost/contract/metrics';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import type { DeviceRef } from '../../live/device-state';
import { createIngest } from './metrics-ingest';
import type { IngestOptions, SampleOutcome } from './metrics-ingest';
import { createRollupJob } from './metrics-rollup';
import type { RollupOptions } from './metrics-rollup';
import { bucketPoints, findScopedDeviceId, latestVolumes, minutePoints } from './metrics.queries';
import type { PointRow } from './metrics.queries';

// A device's metrics history (docs/product/monitoring.md#metrics): the agents' samples in (the
// live layer's MonitoringReports.metrics), the rollup and retention job, and the chart's answer.

const RANGE_DAYS: Record<MetricRange, number> = { '24h': 1, '7d': 7, '30d': 30 };
const percent = (v: number | null) => (v === null ? null : Number(v) / 100);
const iso = (minute: number) => new Date(minute * 60_000).toISOString();

function toPoint(r: PointRow): MetricPoint {
  return {
    at: iso(Number(r.minute)),
    cpu: percent(r.cpu),
    cpu_max: percent(r.cpu_max),
    memory: percent(r.memory),
    memory_max: percent(r.memory_max),
    disk: percent(r.disk),
  };
}

export function createMetricsService(deps: {
  db: Db;
  log: FastifyBaseLogger;
  /** the clock (tests inject theirs) */
  now?: () => number;
  ingest?: Partial<IngestOptions>;
  rollup?: Partial<RollupOptions>;
  /** counts samples by outcome (plugins/metrics.ts) */
  onSamples?: (outcome: SampleOutcome, count: number) => void;
}) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const ingest = createIngest({ db, log: deps.log, now, options: deps.ingest, onSamples: deps.onSamples });
  const rollupJob = createRollupJob({ db, log: deps.log, now, options: deps.rollup });

  return {
    /** MonitoringReports.metrics: synchronous, buffered (no caller to authorise: the agent's own device) */
    record: (device: DeviceRef, message: MetricsMessage) => ingest.record(device.id, message),
    flush: () => ingest.flush(),
    runRollup: () => rollupJob.runOnce(),
    start() {
      ingest.start();
      rollupJob.start();
    },
    async stop() {
      await rollupJob.stop();
      await ingest.stop();
    },

    /** The chart: any member, on a device they may see (docs/product/administration.md#who-may-do-what). */
    async history(ctx: RequestContext, idOrGuid: string, range: MetricRange): Promise<MetricsResponse> {
      const deviceId = await findScopedDeviceId(db, ctx, idOrGuid);
      if (deviceId === null) {
        throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
      }
      const nowMinute = Math.floor(now() / 60_000);
      const isMinutes = range === '24h';
      const from = nowMinute - (isMinutes ? MINUTE_RETENTION_HOURS * 60 : RANGE_DAYS[range] * 24 * 60);
      const [rows, latest] = await Promise.all([
        isMinutes
          ? minutePoints(db, deviceId, from)
          : bucketPoints(db, deviceId, from - (from % ROLLUP_MINUTES)),
        latestVolumes(db, deviceId),
      ]);
      const volumes: VolumeUse[] = (latest?.volumes ?? []).map((v) => ({
        mount: v.mount,
        used_percent: v.used / 100,
        total_bytes: v.total,
        free_bytes: v.free,
      }));
      return {
        range,
        step_seconds: isMinutes ? 60 : ROLLUP_MINUTES * 60,
        points: rows.map(toPoint),
        volumes,
        latest_at: latest ? iso(latest.minute) : null,
      };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
