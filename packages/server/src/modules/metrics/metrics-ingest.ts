import type { FastifyBaseLogger } from 'fastify';
import type { MetricsMessage } from '@outpost/contract/agent-monitoring';
import { MINUTE_RETENTION_HOURS } from '@outpost/contract/metrics';
import type { Db } from '../../db/client';
import type { SampleRow, VolumesRow } from './metrics.queries';
import { insertSamples, upsertVolumes } from './metrics.queries';

// Metrics ingestion (docs/product/monitoring.md#metrics): every agent sends a sample a minute, so
// at 100,000 devices about 1,700 arrive each second. The socket hands each one over synchronously;
// they wait here, one per device and minute, and a flush writes them as one multi-row statement
// per batch (every second, or at once when a batch is full). A sample is not acknowledged: one
// that cannot be written is a gap in a chart, counted and logged, never retried.

/** How a sample ended, for the /metrics counter. */
export type SampleOutcome = 'written' | 'duplicate' | 'too_old' | 'future' | 'overflow' | 'failed';

export type IngestOptions = {
  flushIntervalMs: number;
  /** rows per statement; a full batch is flushed at once */
  batchSize: number;
  /** samples held at most; beyond, new ones are dropped (the database is not keeping up) */
  maxBuffered: number;
};

export const DEFAULT_INGEST: IngestOptions = {
  flushIntervalMs: 1_000,
  batchSize: 2_000,
  maxBuffered: 200_000,
};

/** A sample more than this far ahead of the server's clock is refused (a wrong device clock). */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

const MINUTE_MS = 60_000;
const hundredths = (percent: number) => Math.round(percent * 100);

/** The stored row of a sample, or why it is refused. Pure: the unit tests call it. */
export function toSampleRow(
  deviceId: number,
  m: MetricsMessage,
  nowMs: number,
): { row: SampleRow; volumes: VolumesRow } | { refused: 'too_old' | 'future' } {
  const at = Date.parse(m.sampledAt);
  if (!Number.isFinite(at) || at < nowMs - MINUTE_RETENTION_HOURS * 3_600_000) {
    return { refused: 'too_old' };
  }
  if (at > nowMs + FUTURE_TOLERANCE_MS) {
    return { refused: 'future' };
  }
  const minute = Math.floor(at / MINUTE_MS);
  const fullest = m.volumes.reduce<number | null>((max, v) => Math.max(max ?? 0, v.usedPercent), null);
  return {
    row: {
      deviceId,
      minute,
      cpu: hundredths(m.cpu),
      cpuMax: m.cpuMax === undefined ? null : hundredths(Math.max(m.cpuMax, m.cpu)),
      memory: hundredths(m.memory),
      disk: fullest === null ? null : hundredths(fullest),
    },
    volumes: {
      deviceId,
      minute,
      volumes: m.volumes.map((v) => ({
        mount: v.mount,
        used: hundredths(v.usedPercent),
        total: v.totalBytes ?? null,
        free: v.freeBytes ?? null,
      })),
    },
  };
}

export type Ingest = {
  record(deviceId: number, message: MetricsMessage): void;
  /** writes what is buffered now (and waits for a flush under way) */
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
};

export function createIngest(deps: {
  db: Db;
  log: FastifyBaseLogger;
  now: () => number;
  options?: Partial<IngestOptions>;
  onSamples?: (outcome: SampleOutcome, count: number) => void;
}): Ingest {
  const options = { ...DEFAULT_INGEST, ...deps.options };
  const count = (outcome: SampleOutcome, n: number) => {
    if (n > 0) {
      deps.onSamples?.(outcome, n);
    }
  };
  let buffer = new Map<string, { row: SampleRow; volumes: VolumesRow }>();
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function writeBatch(batch: { row: SampleRow; volumes: VolumesRow }[]) {
    // one volumes row per device: its newest sample's
    const latest = new Map<number, VolumesRow>();
    for (const { volumes } of batch) {
      const seen = latest.get(volumes.deviceId);
      if (!seen || seen.minute < volumes.minute) {
        latest.set(volumes.deviceId, volumes);
      }
    }
    try {
      const written = await insertSamples(
        deps.db,
        batch.map((b) => b.row),
      );
      await upsertVolumes(deps.db, [...latest.values()]);
      count('written', written);
      count('duplicate', batch.length - written);
    } catch (err) {
      count('failed', batch.length);
      deps.log.error({ err, samples: batch.length }, 'could not write metrics samples');
    }
  }

  async function drain() {
    while (buffer.size > 0) {
      const taken = [...buffer.values()];
      buffer = new Map();
      for (let i = 0; i < taken.length; i += options.batchSize) {
        await writeBatch(taken.slice(i, i + options.batchSize));
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= drain().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  return {
    record(deviceId, message) {
      const sample = toSampleRow(deviceId, message, deps.now());
      if ('refused' in sample) {
        count(sample.refused, 1);
        return;
      }
      const key = `${deviceId}:${sample.row.minute}`;
      if (buffer.has(key)) {
        count('duplicate', 1);
        return;
      }
      if (buffer.size >= options.maxBuffered) {
        count('overflow', 1);
        return;
      }
      buffer.set(key, sample);
      if (buffer.size >= options.batchSize && !flushing) {
        void flush();
      }
    },
    flush,
    start() {
      timer ??= setInterval(() => void flush(), options.flushIntervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) {
        clearInterval(timer);
        timer = null;
      }
      await flush();
    },
  };
}
