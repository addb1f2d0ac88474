import type { FastifyBaseLogger } from 'fastify';
import { rolloutMessages as messages } from '@outpost/contract/rollout-messages';
import type { DeviceHold } from '@outpost/contract/rollouts';
import type { Db } from '../../../db/client';
import { systemActor, writeAudit } from '../../../lib/audit';
import type { Executor } from '../../../lib/db';
import type { CommandQueue } from '../../../live/command-queue';
import type { JobRow } from '../deployments.queries';
import { jobSiteIds } from '../job-sites.queries';
import type { Clock } from './clock';
import { queueRunDeployments } from './dispatcher';
import type { WindowGate } from './windows';
import type { PublishJob } from './job-updates';
import { gateVerdict, haltReason } from './rollout-rules';
import {
  claimNextWave,
  endedSoaks,
  findWave,
  holdRows,
  listWaves,
  lockRolloutJob,
  oneWaveCounts,
  releaseRows,
  runningRollouts,
  setRolloutState,
  untakenRows,
  updateWave,
} from './rollout.queries';
import type { HeldRow } from './rollout.queries';

// The rollout part of the engine (docs/product/rollouts.md#gates): after a job's rows settled
// (and on the sweep) the current wave's gate is looked at: too many failures halt the rollout
// and hold the wave's rows the agents have not taken; a met gate starts the soak; when the soak
// ends (the scheduler's pass) the next wave is claimed atomically and dispatched.

export const ROLLOUT_BATCH = 50;
/** a change publishes at most this many device rows; the page refetches the rest on the state */
export const PUBLISH_ROWS_MAX = 200;

export type RolloutQueries = {
  claimNextWave: typeof claimNextWave;
  endedSoaks: typeof endedSoaks;
  findWave: typeof findWave;
  holdRows: typeof holdRows;
  listWaves: typeof listWaves;
  lockRolloutJob: typeof lockRolloutJob;
  oneWaveCounts: typeof oneWaveCounts;
  releaseRows: typeof releaseRows;
  runningRollouts: typeof runningRollouts;
  setRolloutState: typeof setRolloutState;
  untakenRows: typeof untakenRows;
  updateWave: typeof updateWave;
  queueRows: (tx: Executor, job: JobRow, rows: readonly HeldRow[]) => Promise<number[]>;
  jobSiteIds: typeof jobSiteIds;
  writeAudit: typeof writeAudit;
};

/** What a transaction changed, announced after its commit. */
export type RolloutChange = { job: JobRow; woken: number[]; rows: HeldRow[] };

/** A halt as the notification channels hear of it, in the halt's transaction. */
export type RolloutHalted = {
  tenantId: number;
  jobId: number;
  jobName: string;
  wave: number;
  reason: string;
  heldDevices: number;
  at: Date;
};
export type OnRolloutHalted = (tx: Executor, halted: RolloutHalted) => Promise<void>;

/** What the part's steps outside its closure need. */
type PartContext = {
  queries: RolloutQueries;
  commandQueue: Pick<CommandQueue, 'withdrawCommands'>;
  clock: Clock;
  onHalted?: OnRolloutHalted;
};

/** Holds the wave's rows no agent has taken, withdrawing their commands not yet offered. */
async function holdUntaken(
  c: PartContext,
  tx: Executor,
  job: JobRow,
  index: number,
  hold: DeviceHold,
  note: string,
) {
  const untaken = await c.queries.untakenRows(tx, job.id, index);
  const queued = untaken.flatMap((r) => (r.commandId ? [r.commandId] : []));
  const withdrawn = new Set(await c.commandQueue.withdrawCommands(tx, queued, messages.withdrawn));
  const ids = untaken.filter((r) => !r.commandId || withdrawn.has(r.commandId)).map((r) => r.id);
  return c.queries.holdRows(tx, ids, hold, note);
}

/** Releases the wave's rows held for these reasons and dispatches them. */
async function release(c: PartContext, tx: Executor, job: JobRow, index: number, holds: DeviceHold[]) {
  const rows = await c.queries.releaseRows(tx, job.id, index, holds);
  const woken = await c.queries.queueRows(tx, job, rows);
  return { rows, woken };
}

async function halt(
  c: PartContext,
  tx: Executor,
  job: JobRow,
  index: number,
  reason: string,
): Promise<RolloutChange> {
  const now = new Date(c.clock.now());
  await c.queries.updateWave(tx, job.id, index, { haltedAt: now, soakUntil: null });
  const after = await c.queries.setRolloutState(
    tx,
    job.id,
    { rolloutState: 'halted', rolloutStateReason: reason },
    now,
  );
  const rows = await holdUntaken(c, tx, after, index, 'halted', messages.heldByHalt(index));
  await c.queries.writeAudit(
    tx,
    systemActor({ tenantId: job.tenantId, name: 'Rollout gate', ip: null, userAgent: null }),
    {
      action: 'Halt Rollout',
      resourceType: 'deployment',
      resourceId: job.id,
      details: `${job.name}: ${reason}`,
      newValues: { rollout_state: 'halted', wave: index, held_devices: rows.length },
      siteIds: await c.queries.jobSiteIds(tx, job.id),
    },
  );
  await c.onHalted?.(tx, {
    tenantId: job.tenantId,
    jobId: job.id,
    jobName: job.name,
    wave: index,
    reason,
    heldDevices: rows.length,
    at: now,
  });
  return { job: after, woken: [], rows };
}

/** The part's statements against the database. */
function defaultQueries(
  commandQueue: Pick<CommandQueue, 'queueCommands'>,
  offlineExpiryMs: number,
  clock: Clock,
  windows?: Pick<WindowGate, 'admit'>,
): RolloutQueries {
  return {
    claimNextWave,
    endedSoaks,
    findWave,
    holdRows,
    listWaves,
    lockRolloutJob,
    oneWaveCounts,
    releaseRows,
    runningRollouts,
    setRolloutState,
    untakenRows,
    updateWave,
    jobSiteIds,
    writeAudit,
    queueRows: (tx, job, rows) =>
      queueRunDeployments(tx, { commandQueue, offlineExpiryMs, clock, windows }, job, rows),
  };
}

export type Rollouts = ReturnType<typeof createRollouts>;

export function createRollouts(deps: {
  db: Db;
  commandQueue: Pick<CommandQueue, 'queueCommands' | 'dispatch' | 'withdrawCommands'>;
  publishJob: PublishJob;
  offlineExpiryMs: number;
  clock: Clock;
  log: FastifyBaseLogger;
  queries?: RolloutQueries;
  /** a wave of a job run only inside maintenance windows holds devices outside theirs (windows.ts) */
  windows?: Pick<WindowGate, 'admit'>;
  /** told of each automatic halt in its transaction (the notification channels) */
  onHalted?: OnRolloutHalted;
}) {
  const { db, commandQueue, publishJob, clock, log } = deps;
  const queries: RolloutQueries =
    deps.queries ?? defaultQueries(commandQueue, deps.offlineExpiryMs, clock, deps.windows);

  const part: PartContext = { queries, commandQueue, clock, onHalted: deps.onHalted };

  /**
   * The wave `from` passed: the next wave starts (claimed atomically: one caller of any instance
   * dispatches it), or the rollout completes after the last one.
   */
  async function advance(tx: Executor, job: JobRow, from: number): Promise<RolloutChange | null> {
    const now = new Date(clock.now());
    await queries.updateWave(tx, job.id, from, { passedAt: now, soakUntil: null });
    const waves = await queries.listWaves(tx, job.id);
    if (from + 1 >= waves.length) {
      const done = await queries.setRolloutState(tx, job.id, { rolloutState: 'completed' }, now);
      return { job: done, woken: [], rows: [] };
    }
    const claimed = await queries.claimNextWave(tx, job.id, from);
    if (!claimed) {
      return null;
    }
    await queries.updateWave(tx, job.id, from + 1, { startedAt: now });
    const { rows, woken } = await release(part, tx, claimed, from + 1, ['wave']);
    // a wave without devices meets its gate at once
    const next = await evaluateLocked(tx, claimed);
    return {
      job: next?.job ?? claimed,
      woken: [...woken, ...(next?.woken ?? [])],
      rows: [...rows, ...(next?.rows ?? [])],
    };
  }

  /** The current wave's gate, the job locked by the caller. */
  async function evaluateLocked(tx: Executor, job: JobRow): Promise<RolloutChange | null> {
    if (job.rolloutState !== 'running' || job.currentWave === null || job.status === 'cancelled') {
      return null;
    }
    const index = job.currentWave;
    const wave = await queries.findWave(tx, job.id, index);
    if (!wave || wave.passedAt) {
      return null;
    }
    const gate = {
      min_finished_percent: wave.minFinishedPercent,
      min_success_percent: wave.minSuccessPercent,
    };
    const counts = await queries.oneWaveCounts(tx, job.id, index);
    const verdict = gateVerdict(counts, gate, wave.resumedFailedDevices);
    if (verdict === 'halt') {
      return halt(part, tx, job, index, haltReason(index, counts, gate));
    }
    if (verdict !== 'met' || wave.soakUntil) {
      return null;
    }
    if (wave.soakMinutes === 0) {
      await queries.updateWave(tx, job.id, index, { gateMetAt: wave.gateMetAt ?? new Date(clock.now()) });
      return advance(tx, job, index);
    }
    await queries.updateWave(tx, job.id, index, {
      gateMetAt: wave.gateMetAt ?? new Date(clock.now()),
      soakUntil: new Date(clock.now() + wave.soakMinutes * 60_000),
    });
    return { job, woken: [], rows: [] };
  }

  /** After the commit: ring the woken devices, publish the job and the rows whose hold changed. */
  async function announce(change: RolloutChange | null): Promise<void> {
    if (!change) {
      return;
    }
    await commandQueue.dispatch(change.woken);
    await publishJob(change.job);
    for (const row of change.rows.slice(0, PUBLISH_ROWS_MAX)) {
      await publishJob(change.job, row);
    }
  }

  /** Looks at one job's gate in its own transaction, then announces what changed. */
  async function evaluate(jobId: number): Promise<void> {
    const change = await db.transaction(async (tx) => {
      const job = await queries.lockRolloutJob(tx, jobId);
      return job ? evaluateLocked(tx, job) : null;
    });
    await announce(change);
  }

  return {
    evaluateLocked,
    holdUntaken: (tx: Executor, job: JobRow, index: number, hold: DeviceHold, note: string) =>
      holdUntaken(part, tx, job, index, hold, note),
    release: (tx: Executor, job: JobRow, index: number, holds: DeviceHold[]) =>
      release(part, tx, job, index, holds),
    advance,
    announce,
    evaluate,
    /** A settled job: its gate, when its rollout runs. */
    async afterSettle(job: JobRow): Promise<void> {
      if (job.rolloutState === 'running') {
        await evaluate(job.id);
      }
    },
    /** The scheduler's pass: waves whose soak ended start their next wave. */
    async pass(): Promise<void> {
      for (const due of await queries.endedSoaks(db, new Date(clock.now()), ROLLOUT_BATCH)) {
        const change = await db
          .transaction(async (tx) => {
            const job = await queries.lockRolloutJob(tx, due.jobId);
            if (!job || job.rolloutState !== 'running' || job.currentWave !== due.waveIndex) {
              // a halted, paused or ended rollout's soak no longer counts
              await queries.updateWave(tx, due.jobId, due.waveIndex, { soakUntil: null });
              return null;
            }
            return advance(tx, job, due.waveIndex);
          })
          .catch((err: unknown) => {
            log.warn({ err, jobId: due.jobId }, 'starting a rollout wave failed; the next pass retries');
            return null;
          });
        await announce(change);
      }
    },
    /** The sweep: running rollouts' gates again (rows ended by the sweep or by hand). */
    async sweep(): Promise<void> {
      for (const jobId of await queries.runningRollouts(db, ROLLOUT_BATCH * 10)) {
        try {
          await evaluate(jobId);
        } catch (err) {
          log.warn({ err, jobId }, 'evaluating a rollout gate failed');
        }
      }
    },
  };
}
