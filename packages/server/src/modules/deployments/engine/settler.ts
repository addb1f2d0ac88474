import type { FastifyBaseLogger } from 'fastify';
import type { JobStatus } from '@outpost/contract/live';
import type { Db } from '../../../db/client';
import type { Executor } from '../../../lib/db';
import { updateJob } from '../deployments.queries';
import type { JobRow } from '../deployments.queries';
import { emitJobEvent } from '../job-events';
import type { Clock } from './clock';
import { isTerminal } from './job-updates';
import type { DeviceRowUpdate, PublishJob } from './job-updates';
import { deviceStatusCounts, lockJobById } from './settler.queries';

// The settler: a job's counters and status are recomputed from its device rows, at most
// SETTLE_DELAY_MS after agent messages changed them, for every job whose rows changed meanwhile
// (one transaction and one count per job, not per message), then published with the changed rows.

/** how long changed device rows wait before their job is settled (batched per job) */
export const SETTLE_DELAY_MS = 50;
/** after a failed settle (database away), the next try */
export const SETTLE_RETRY_MS = 1000;

export type SettlerQueries = {
  lockJobById: typeof lockJobById;
  deviceStatusCounts: typeof deviceStatusCounts;
  updateJob: typeof updateJob;
};

export type Settler = {
  /** the job's rows changed: settle it soon, then publish it (with this row when given) */
  markUnsettled(jobId: number, dd?: DeviceRowUpdate): void;
  /** the job waits for its settle already */
  isUnsettled(jobId: number): boolean;
  /** recompute a locked job's counters and status from its device rows */
  settleJob(tx: Executor, jobId: number): Promise<{ before: JobRow; after: JobRow }>;
  /** no new settle is scheduled from now on */
  halt(): void;
  /** settles what waits now (instead of at its timer) and resolves when the last settle ended */
  drain(): Promise<void>;
};

/** A job's status from its device rows' counts: a cancelled job stays cancelled. */
export function settledStatus(current: JobStatus, c: Record<JobStatus, number>): JobStatus {
  if (current === 'cancelled') {
    return current;
  }
  const total = c.pending + c.running + c.completed + c.failed + c.cancelled;
  if (total > 0 && c.pending + c.running === 0) {
    return c.completed === total ? 'completed' : 'failed';
  }
  return total - c.pending > 0 ? 'running' : 'pending';
}

export function createSettler(deps: {
  db: Db;
  publishJob: PublishJob;
  log: FastifyBaseLogger;
  clock: Clock;
  queries?: SettlerQueries;
  /** after a job settled and was published: its rollout's gate (rollout.ts) */
  onSettled?: (job: JobRow) => Promise<void>;
  /** in the settle's transaction, when a job has just failed (an alert opens, modules/alerts) */
  onJobFailed?: (tx: Executor, job: JobRow) => Promise<void>;
}): Settler {
  const { db, publishJob, log, clock } = deps;
  const queries = deps.queries ?? { lockJobById, deviceStatusCounts, updateJob };
  // Jobs whose device rows agent messages changed since their last settle, each with the changed
  // rows to publish (the latest row per device deployment).
  const unsettled = new Map<number, Map<number, DeviceRowUpdate>>();
  let cancelTimer: (() => void) | null = null;
  let settling: Promise<void> | null = null;
  let isStopped = false;

  function markUnsettled(jobId: number, dd?: DeviceRowUpdate) {
    let rows = unsettled.get(jobId);
    if (!rows) {
      rows = new Map();
      unsettled.set(jobId, rows);
    }
    if (dd) {
      rows.set(dd.id, dd);
    }
    scheduleSettle(SETTLE_DELAY_MS);
  }

  function scheduleSettle(delayMs: number) {
    if (cancelTimer || settling || isStopped) {
      return; // a running settle looks again when it ends
    }
    cancelTimer = clock.after(delayMs, () => {
      cancelTimer = null;
      settling = settleChanged()
        .catch(() => false)
        .then((isDone) => {
          settling = null;
          if (unsettled.size > 0) {
            scheduleSettle(isDone ? SETTLE_DELAY_MS : SETTLE_RETRY_MS);
          }
        });
    });
  }

  /** Puts rows back for the next settle, keeping any newer row of the same device deployment. */
  function requeue(jobId: number, rows: Map<number, DeviceRowUpdate>) {
    const current = unsettled.get(jobId);
    if (!current) {
      unsettled.set(jobId, rows);
      return;
    }
    for (const [id, dd] of rows) {
      if (!current.has(id)) {
        current.set(id, dd);
      }
    }
  }

  /** Settles every changed job, then publishes it; false when the database failed (retried). */
  async function settleChanged(): Promise<boolean> {
    const batch = [...unsettled];
    unsettled.clear();
    for (const [i, [jobId, rows]] of batch.entries()) {
      let job: JobRow;
      try {
        job = (await db.transaction((tx) => settleJob(tx, jobId))).after;
      } catch (err) {
        log.warn({ err, jobId }, 'settling a deployment job failed; retrying');
        for (const [id, left] of batch.slice(i)) {
          requeue(id, left);
        }
        return false;
      }
      if (rows.size === 0) {
        await publishJob(job);
      }
      for (const dd of rows.values()) {
        await publishJob(job, dd);
      }
      if (deps.onSettled) {
        await deps.onSettled(job).catch((err: unknown) => log.warn({ err, jobId }, 'rollout gate failed'));
      }
    }
    return true;
  }

  async function settleJob(tx: Executor, jobId: number) {
    const before = await queries.lockJobById(tx, jobId);
    const c = await queries.deviceStatusCounts(tx, jobId);
    const total = c.pending + c.running + c.completed + c.failed + c.cancelled;
    const status = settledStatus(before.status, c);
    const now = new Date(clock.now());
    const after = await queries.updateJob(tx, jobId, {
      status,
      totalDevices: total,
      completedDevices: c.completed,
      failedDevices: c.failed,
      // a job cancelled before any device started never started (a device's first progress
      // starts a job, startJobs)
      ...(status !== 'pending' && status !== 'cancelled' && !before.startedAt && { startedAt: now }),
      ...(isTerminal(status) && !before.completedAt && { completedAt: now }),
    });
    if (after.status !== before.status) {
      await emitJobEvent(tx, after);
    }
    if (after.status === 'failed' && before.status !== 'failed' && deps.onJobFailed) {
      await deps.onJobFailed(tx, after);
    }
    return { before, after };
  }

  return {
    markUnsettled,
    isUnsettled: (jobId) => unsettled.has(jobId),
    settleJob,
    halt() {
      isStopped = true;
    },
    async drain() {
      if (cancelTimer) {
        cancelTimer();
        cancelTimer = null;
        if (unsettled.size > 0) {
          settling = settleChanged().then(
            () => undefined,
            () => undefined,
          );
        }
      }
      await settling;
    },
  };
}
