import type { FastifyBaseLogger } from 'fastify';
import { MINUTE_RETENTION_HOURS, ROLLUP_MINUTES, ROLLUP_RETENTION_DAYS } from '@outpost/contract/metrics';
import type { Db } from '../../db/client';
import {
  claimRollupLease,
  deleteMinutesBefore,
  deleteRollupsBefore,
  releaseRollupLease,
  rollUp,
} from './metrics.queries';

// The rollup and retention job (docs/product/monitoring.md#metrics): every few minutes one
// instance (the holder of the lease in metric_rollup_state) rolls the finished 15-minute buckets
// into rollups, then deletes minutes older than 24 hours and rollups older than 30 days, in
// batches so no statement holds many rows. Rolling a bucket again replaces it (an upsert), so a
// run that died half-way is simply run again.

export type RollupOptions = {
  intervalMs: number;
  /** a bucket is finished this long after its end (samples still on their way) */
  lagMinutes: number;
  /** how long an instance holds the job; one that dies lets another take over after it */
  leaseMs: number;
  /** rows per delete statement */
  deleteBatch: number;
};

export const DEFAULT_ROLLUP: RollupOptions = {
  intervalMs: 5 * 60_000,
  lagMinutes: 2,
  leaseMs: 10 * 60_000,
  deleteBatch: 20_000,
};

export type RollupRun = {
  rolledUntil: number;
  rollups: number;
  minutesDeleted: number;
  rollupsDeleted: number;
};

/** The window a run rolls: [from, to) in epoch minutes, whole buckets. Pure: unit-tested. */
export function rollupWindow(
  rolledUntil: number,
  nowMinute: number,
  lagMinutes: number,
): { from: number; to: number } {
  const alignDown = (m: number) => m - (((m % ROLLUP_MINUTES) + ROLLUP_MINUTES) % ROLLUP_MINUTES);
  const to = alignDown(nowMinute - lagMinutes);
  // Everything since the last run, also when that was more than a day ago (the minutes are
  // deleted after this run's rollup); the first run starts with the oldest minutes kept.
  const from =
    rolledUntil > 0
      ? alignDown(rolledUntil)
      : alignDown(nowMinute - MINUTE_RETENTION_HOURS * 60 - lagMinutes);
  return { from, to: Math.max(from, to) };
}

export type RollupJob = {
  /** one run now (null when another instance holds the job) */
  runOnce(): Promise<RollupRun | null>;
  start(): void;
  stop(): Promise<void>;
};

export function createRollupJob(deps: {
  db: Db;
  log: FastifyBaseLogger;
  now: () => number;
  options?: Partial<RollupOptions>;
}): RollupJob {
  const options = { ...DEFAULT_ROLLUP, ...deps.options };
  const { db } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function deleteAll(remove: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await remove(options.deleteBatch);
      total += n;
      if (n < options.deleteBatch) {
        return total;
      }
    }
  }

  async function runOnce(): Promise<RollupRun | null> {
    const nowMs = deps.now();
    const rolledUntil = await claimRollupLease(db, new Date(nowMs), new Date(nowMs + options.leaseMs));
    if (rolledUntil === null) {
      return null;
    }
    const nowMinute = Math.floor(nowMs / 60_000);
    const { from, to } = rollupWindow(rolledUntil, nowMinute, options.lagMinutes);
    let done: number | null = null;
    try {
      const rollups = to > from ? await rollUp(db, from, to) : 0;
      done = to;
      const minutesDeleted = await deleteAll((limit) =>
        deleteMinutesBefore(db, nowMinute - MINUTE_RETENTION_HOURS * 60, limit),
      );
      const rollupsDeleted = await deleteAll((limit) =>
        deleteRollupsBefore(db, nowMinute - ROLLUP_RETENTION_DAYS * 24 * 60, limit),
      );
      return { rolledUntil: to, rollups, minutesDeleted, rollupsDeleted };
    } finally {
      await releaseRollupLease(db, done);
    }
  }

  function tick() {
    if (running) {
      return;
    }
    running = runOnce()
      .then((run) => run && deps.log.debug({ ...run }, 'metrics rolled up'))
      .catch((err: unknown) => deps.log.error({ err }, 'metrics rollup failed'))
      .finally(() => {
        running = null;
      });
  }

  return {
    runOnce,
    start() {
      if (!timer) {
        timer = setInterval(tick, options.intervalMs);
        timer.unref();
        tick();
      }
    },
    async stop() {
      if (timer) {
        clearInterval(timer);
        timer = null;
      }
      await running;
    },
  };
}
