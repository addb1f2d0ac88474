import type { FastifyBaseLogger } from 'fastify';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { RunDeploymentResult } from '@outpost/contract/deployments';
import { INT4_MAX } from '@outpost/contract/input';
import { deploymentKey } from '@outpost/contract/live';
import type { DeploymentUpdatePayload, JobStatus } from '@outpost/contract/live';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import type {
  CommandQueue,
  CommandResultEvent,
  ProgressRefusal,
  StepProgressEvent,
} from '../../live/command-queue';
import type { DeviceRef } from '../../live/device-state';
import type { PortalHub } from '../../live/portal-socket';
import { createGroupCommit } from '../../lib/group-commit';
import { isUuid } from '../../lib/uuid';
import {
  claimDueJobs,
  claimOverdueDeviceDeployments,
  deleteStepLogs,
  deviceDeploymentsOfCommands,
  deviceStatusCounts,
  endDeviceDeployments,
  endDeviceDeploymentsOfCommands,
  lockJobById,
  readJobById,
  markJobDispatched,
  pendingDeviceDeploymentsOf,
  setDeviceDeploymentCommands,
  staleCommandRows,
  startJobs,
  unsettledJobs,
  updateJob,
  writeStepProgress,
} from './deployments.queries';
import type {
  CommandResultEnd,
  DeviceDeploymentRow,
  DeviceDeploymentState,
  JobRow,
  ProgressWrite,
  WrittenStepLog,
} from './deployments.queries';
import { checkProgress, isNotRun, keepHeadAndTail } from './step-log-rules';
import { runDeploymentOf } from './job-command';

// The deployment engine (ARCHITECTURE §5), one per server instance:
//  - the scheduler claims due jobs with FOR UPDATE SKIP LOCKED, so several instances never
//    dispatch a job twice, and queues one run_deployment command per device (the database is the
//    queue: an offline device gets it when it reconnects);
//  - step progress and results from agents update step logs and device rows, each message once
//    (progress carries a seq; a result ends a row only while it is unfinished), each message in a
//    transaction that locks its device row alone; the job's counters and status are recomputed
//    from its device rows by the settler, at most SETTLE_DELAY_MS later, for every job whose rows
//    changed meanwhile (one transaction and one count per job, not per message);
//  - a sweep fails device deployments whose device never took the work before the expiry, went
//    away mid-run and stayed away, or was removed, and reconciles rows whose command ended
//    without its result reaching us (a crash between the two), and settles active jobs whose
//    counters disagree with their rows (an instance that stopped before its settler ran).
// Lock order everywhere: the job row, then its device rows (agent messages take no job lock).

export type DeploymentEngineOptions = {
  offlineExpiryMs: number;
  schedulerIntervalMs: number;
};

export type DeploymentEngine = {
  /** look for due work now (after a job was created), without waiting for the timer */
  kick(): void;
  /** one scheduler pass: dispatch due jobs, then the sweep; resolves when done */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
  /** publish what changed in a job (the service calls it after its own transactions) */
  publishJob(job: JobRow, device?: DeviceRowUpdate): Promise<void>;
  /** recompute a locked job's counters and status from its device rows */
  settleJob(tx: Executor, jobId: number): Promise<{ before: JobRow; after: JobRow }>;
};

const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];
export const isTerminal = (s: JobStatus) => TERMINAL.includes(s);
/**
 * Due jobs claimed per transaction: one, so each job's doorbell rings as soon as its commands are
 * committed and its devices' offers overlap the next job's dispatch (ten jobs posted at once were
 * one transaction, and the first device heard of its work when the tenth job was written).
 */
const CLAIM_BATCH = 1;
/**
 * Claims run this many at a time (SKIP LOCKED gives each its own job): one job's dispatch is a
 * few statements that wait on the database, and ten jobs one after another were the last
 * commands' delivery time at 10,000 devices (bench/RESULTS.md, deploy).
 */
const CLAIM_LANES = 2;
const SWEEP_BATCH = 200;
const SWEEP_EVERY_MS = 5000;
/** a command that ended this long ago without changing its device row is reconciled */
const RECONCILE_AFTER_MS = 10_000;
const REBOOT_CODES = [3010, 1641];
/** how long changed device rows wait before their job is settled (batched per job) */
const SETTLE_DELAY_MS = 50;
/** after a failed settle (database away), the next try */
const SETTLE_RETRY_MS = 1000;
/** at most this many agent messages (progress, results) per transaction, this many at once */
const AGENT_BATCH = 500;
const AGENT_BATCH_LANES = 2;
/** job rows kept for agent messages (their steps, name and tenant never change) */
const JOB_CACHE_SIZE = 500;

const parseTime = (text: string | undefined, fallback: Date) => {
  const t = text ? new Date(text) : null;
  return t && !Number.isNaN(t.getTime()) ? t : fallback;
};

/**
 * The messages a device row has not applied yet (seq above its `progressSeq`, so a resent message
 * is applied once). seq 1 again after others means the agent started the command over (it
 * restarted mid-run and was offered the command again): the messages before it are dropped.
 */
export function unapplied(
  progressSeq: number,
  messages: StepProgressMessage[],
): { fresh: StepProgressMessage[]; isRestart: boolean } {
  let seq = progressSeq;
  let isRestart = false;
  const fresh: StepProgressMessage[] = [];
  for (const m of messages) {
    if (m.seq === 1 && seq > 0) {
      isRestart = true;
      fresh.length = 0;
    } else if (m.seq <= seq) {
      continue;
    }
    seq = m.seq;
    fresh.push(m);
  }
  return { fresh, isRestart };
}

/**
 * One message per attempt (step and attempt), in the order the attempts first appear: the
 * attempt's messages merged as the log applies them one by one: output appended, the first final
 * status kept (a later one adds only its output), the start of the first message that had one.
 */
export function attemptsOf(messages: StepProgressMessage[]): StepProgressMessage[] {
  const byAttempt = new Map<string, StepProgressMessage>();
  for (const m of messages) {
    const key = `${m.stepOrder}/${m.attempt ?? 1}`;
    const before = byAttempt.get(key);
    byAttempt.set(key, before ? mergeProgress(before, m) : m);
  }
  return [...byAttempt.values()];
}

function mergeProgress(a: StepProgressMessage, b: StepProgressMessage): StepProgressMessage {
  const joined = (x: string | null | undefined, y: string | null | undefined) => {
    const text = (x ?? '') + (y ?? '');
    return text === '' ? undefined : text;
  };
  const output = { stdout: joined(a.stdout, b.stdout), stderr: joined(a.stderr, b.stderr) };
  if (a.status !== 'running') {
    return { ...a, ...output };
  }
  return { ...a, ...b, startedAt: a.startedAt ?? b.startedAt, ...output };
}

/** What a deployment_update tells of a device row. */
export type DeviceRowUpdate = Pick<
  DeviceDeploymentRow,
  'id' | 'deviceGuid' | 'siteId' | 'status' | 'errorMessage'
>;

/** The deployment_update payload of a job, and of one of its device rows when given. */
export function jobUpdate(job: JobRow, device?: DeviceRowUpdate): DeploymentUpdatePayload {
  return {
    deploymentId: job.id,
    status: job.status,
    jobName: job.name,
    total_devices: job.totalDevices,
    completed_devices: job.completedDevices,
    failed_devices: job.failedDevices,
    started_at: job.startedAt?.toISOString() ?? null,
    completed_at: job.completedAt?.toISOString() ?? null,
    ...(device && {
      deviceDeploymentId: device.id,
      ...(device.deviceGuid && { deviceId: device.deviceGuid }),
      deviceStatus: device.status,
      errorMessage: device.errorMessage,
    }),
  };
}

export function createDeploymentEngine(deps: {
  db: Db;
  queue: CommandQueue;
  hub: Pick<PortalHub, 'send'>;
  log: FastifyBaseLogger;
  options: DeploymentEngineOptions;
  /** told, per dispatched job, how long after it became due it was dispatched (the metrics) */
  onDispatched?: (lagSeconds: number) => void;
}): DeploymentEngine {
  const { db, queue, hub, log, options } = deps;
  const expiryHours = Math.max(1, Math.round(options.offlineExpiryMs / 3_600_000));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let lastSweep = 0;
  let isStopped = false;

  async function publishJob(job: JobRow, device?: DeviceRowUpdate) {
    // An update about one device goes only to those who may see its site (SECURITY.md R2-3).
    await hub.send(
      job.tenantId,
      deploymentKey(job.id),
      'deployment_update',
      jobUpdate(job, device),
      device ? device.siteId : undefined,
    );
  }

  // Jobs whose device rows agent messages changed since their last settle, each with the changed
  // rows to publish (the latest row per device deployment).
  const unsettled = new Map<number, Map<number, DeviceRowUpdate>>();
  let settleTimer: NodeJS.Timeout | null = null;
  let settling: Promise<void> | null = null;

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
    if (settleTimer || settling || isStopped) {
      return; // a running settle looks again when it ends
    }
    settleTimer = setTimeout(() => {
      settleTimer = null;
      settling = settleChanged()
        .catch(() => false)
        .then((isDone) => {
          settling = null;
          if (unsettled.size > 0) {
            scheduleSettle(isDone ? SETTLE_DELAY_MS : SETTLE_RETRY_MS);
          }
        });
    }, delayMs);
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
    }
    return true;
  }

  const jobCache = new Map<number, JobRow>();
  /** jobs this instance saw running (their devices' later first messages need not start them) */
  const runningJobs = new Set<number>();
  async function jobOf(tx: Executor, jobId: number): Promise<JobRow> {
    const cached = jobCache.get(jobId);
    if (cached) {
      return cached;
    }
    const job = await readJobById(tx, jobId);
    if (jobCache.size >= JOB_CACHE_SIZE) {
      jobCache.delete(jobCache.keys().next().value as number);
    }
    jobCache.set(jobId, job);
    return job;
  }

  async function settleJob(tx: Executor, jobId: number) {
    const before = await lockJobById(tx, jobId);
    const c = await deviceStatusCounts(tx, jobId);
    const total = c.pending + c.running + c.completed + c.failed + c.cancelled;
    let status = before.status;
    if (status !== 'cancelled') {
      if (total > 0 && c.pending + c.running === 0) {
        status = c.completed === total ? 'completed' : 'failed';
      } else if (total - c.pending > 0) {
        status = 'running';
      } else {
        status = 'pending';
      }
    }
    const now = new Date();
    const after = await updateJob(tx, jobId, {
      status,
      totalDevices: total,
      completedDevices: c.completed,
      failedDevices: c.failed,
      // a job cancelled before any device started never started (a device's first progress
      // starts a job, startJobs)
      ...(status !== 'pending' && status !== 'cancelled' && !before.startedAt && { startedAt: now }),
      ...(isTerminal(status) && !before.completedAt && { completedAt: now }),
    });
    return { before, after };
  }

  // ---------- scheduler ----------

  async function dispatchDue(): Promise<number> {
    const woken = new Set<number>();
    const jobs = await db.transaction(async (tx) => {
      const due = await claimDueJobs(tx, CLAIM_BATCH);
      for (const job of due) {
        // removed devices are left out; the sweep fails their rows
        const rows = (await pendingDeviceDeploymentsOf(tx, job.id)).flatMap((dd) =>
          dd.deviceId === null ? [] : [{ dd, deviceId: dd.deviceId }],
        );
        const commandIds = await queue.queueCommands(
          tx,
          rows.map(({ dd, deviceId }) => ({
            tenantId: job.tenantId,
            deviceId,
            command: {
              kind: 'run_deployment',
              jobId: job.id,
              deviceDeploymentId: dd.id,
              ...runDeploymentOf(job),
            },
            createdBy: job.createdBy,
            expiresInMs: options.offlineExpiryMs,
          })),
        );
        await setDeviceDeploymentCommands(
          tx,
          rows.map(({ dd }, i) => ({ id: dd.id, commandId: commandIds[i]! })),
          new Date(Date.now() + options.offlineExpiryMs),
        );
        for (const { deviceId } of rows) {
          woken.add(deviceId);
        }
        await markJobDispatched(tx, job.id);
      }
      return due;
    });
    const now = Date.now();
    for (const job of jobs) {
      // due at its schedule, or at creation when it has none (database clock vs this instance's)
      const dueAt = (job.scheduledAt ?? job.createdAt).getTime();
      deps.onDispatched?.(Math.max(0, now - dueAt) / 1000);
    }
    await queue.dispatch([...woken]);
    return jobs.length;
  }

  async function sweep(): Promise<void> {
    const changed: { job: JobRow; dd: DeviceDeploymentRow }[] = [];
    await db.transaction(async (tx) => {
      const overdue = await claimOverdueDeviceDeployments(tx, SWEEP_BATCH);
      for (const dd of overdue) {
        const reason =
          dd.deviceId === null
            ? messages.deviceRemoved
            : dd.status === 'pending'
              ? messages.deviceNeverOnline(expiryHours)
              : messages.deviceWentAway(expiryHours);
        const ended: DeviceDeploymentRow = {
          ...dd,
          status: 'failed',
          errorMessage: reason,
          completedAt: new Date(),
        };
        await endDeviceDeployments(tx, [ended]);
        if (dd.commandId && dd.deviceId !== null) {
          await queue.finishCommand(tx, dd.deviceId, dd.commandId, { status: 'failed', error: reason });
        }
        changed.push({ job: (await settleJob(tx, dd.jobId)).after, dd: ended });
      }
    });
    for (const c of changed) {
      await publishJob(c.job, c.dd);
    }
    await reconcile();
    for (const jobId of await unsettledJobs(db, SWEEP_BATCH)) {
      if (!unsettled.has(jobId)) {
        markUnsettled(jobId);
      }
    }
  }

  /** Device rows whose command ended (a result we could not apply, an expiry at reconnect). */
  async function reconcile(): Promise<void> {
    const stale = await staleCommandRows(db, RECONCILE_AFTER_MS, SWEEP_BATCH);
    for (const r of stale) {
      const cmd = await queue.findCommand(r.commandId);
      if (!cmd || (cmd.status !== 'completed' && cmd.status !== 'failed')) {
        continue;
      }
      await applyResult({
        deviceId: r.deviceId,
        commandId: r.commandId,
        status: cmd.status,
        result: cmd.result ?? null,
        error: cmd.error ?? null,
      });
    }
  }

  async function tick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await Promise.all(
            Array.from({ length: CLAIM_LANES }, async () => {
              while ((await dispatchDue()) === CLAIM_BATCH) {
                // a full batch: there may be more due jobs
              }
            }),
          );
          if (Date.now() - lastSweep >= SWEEP_EVERY_MS) {
            lastSweep = Date.now();
            await sweep();
          }
        } while (again && !isStopped);
      } catch (err) {
        log.error({ err }, 'deployment scheduler pass failed');
      } finally {
        running = null;
      }
    })();
    return running;
  }

  // ---------- results and progress from agents ----------

  type ResultInput = {
    deviceId: number;
    commandId: string;
    status: 'completed' | 'failed';
    result: Record<string, unknown> | null;
    error: string | null;
  };

  /** Ends the device rows of these run_deployment results (each row once; a resent result is ignored). */
  async function applyResults(results: ResultInput[]) {
    const ends = results.map((r): CommandResultEnd => {
      const parsed = RunDeploymentResult.safeParse(r.result);
      const status = parsed.success
        ? parsed.data.deploymentStatus
        : r.status === 'completed'
          ? 'completed'
          : 'failed';
      const error =
        status === 'completed'
          ? null
          : (r.error ?? (status === 'cancelled' ? messages.cancelledOnDevice : messages.agentCannotDeploy));
      // a command that expired before the device took it reads as the device never coming online
      const isExpiry = r.status === 'failed' && !parsed.success && r.error?.startsWith('The command expired');
      return {
        deviceId: r.deviceId,
        commandId: r.commandId,
        status,
        error,
        errorIfPending: isExpiry ? messages.deviceNeverOnline(expiryHours) : error,
        rebootRequired: parsed.success && parsed.data.rebootRequired,
      };
    });
    for (const dd of await endDeviceDeploymentsOfCommands(db, ends)) {
      markUnsettled(dd.jobId, dd);
    }
  }

  const applyResult = createGroupCommit({
    keyOf: (r: ResultInput) => r.deviceId,
    maxBatch: AGENT_BATCH,
    lanes: AGENT_BATCH_LANES,
    apply: async (results) => {
      await applyResults(results);
      return results.map(() => undefined);
    },
  });

  async function onResult(e: CommandResultEvent) {
    if (e.kind !== 'run_deployment') {
      return;
    }
    await applyResult({
      deviceId: e.device.id,
      commandId: e.commandId,
      status: e.status,
      result: e.result,
      error: e.error,
    });
  }

  function notesFor(m: StepProgressMessage, retryCount: number, attempt: number): string | null {
    const notes: string[] = [];
    if (attempt > 1) {
      notes.push(`Attempt ${attempt} of ${retryCount + 1}`);
    }
    if (m.status === 'completed' && m.exitCode != null && REBOOT_CODES.includes(m.exitCode)) {
      notes.push(`Reboot required (exit code ${m.exitCode})`);
    }
    if (m.status === 'failed' && attempt <= retryCount) {
      notes.push(`Failed; the step is retried (attempt ${attempt + 1} of ${retryCount + 1} next)`);
    }
    return notes.length > 0 ? notes.join('\n') : null;
  }

  // Progress and results are written in batches (lib/group-commit.ts): what arrives while a batch
  // is being written goes into the next. A device's messages are handled in order: a batch holds
  // at most one item per device, and an item is every step_progress message its socket had
  // waiting (a run, live/agent-connection.ts), applied together.
  const writeProgress = createGroupCommit({
    keyOf: (e: StepProgressEvent) => e.device.id,
    maxBatch: AGENT_BATCH,
    lanes: AGENT_BATCH_LANES,
    apply: async (events) => {
      const refused = await applyProgress(events);
      return events.map((e) => refused.get(e.device.id) ?? []);
    },
  });

  function onProgress(event: StepProgressEvent): Promise<ProgressRefusal[]> {
    const messages = event.messages.filter((m) => isUuid(m.commandId)); // others are not commands of ours
    return messages.length === 0 ? Promise.resolve([]) : writeProgress({ device: event.device, messages });
  }

  /** A device's messages for one of its commands (one device row), in the order they were sent. */
  type RowProgress = { device: DeviceRef; commandId: string; messages: StepProgressMessage[] };

  type AppliedProgress = {
    m: StepProgressMessage;
    job: JobRow;
    dd: DeviceDeploymentState;
    log: WrittenStepLog;
    isStart: boolean;
  };

  /**
   * A batch of progress: one read of the device rows and one statement that writes them and the
   * logs, with no transaction and no row lock held in between (writeStepProgress applies a row's
   * messages only while the row is as read). What that pass leaves (a row another writer changed
   * meanwhile, an agent that started a command over) goes through a second pass in a transaction
   * with the rows locked.
   */
  async function applyProgress(events: StepProgressEvent[]): Promise<Map<number, ProgressRefusal[]>> {
    const refused = new Map<number, ProgressRefusal[]>();
    const first = await progressPass(db, events.flatMap(byCommand), false, refused);
    await publishProgress(first.applied);
    if (first.left.length > 0) {
      const second = await db.transaction((tx) => progressPass(tx, first.left, true, refused));
      await publishProgress(second.applied);
    }
    return refused;
  }

  /** A device's messages per command (one device row each), in order. */
  function byCommand(event: StepProgressEvent): RowProgress[] {
    const out = new Map<string, RowProgress>();
    for (const m of event.messages) {
      let row = out.get(m.commandId);
      if (!row) {
        row = { device: event.device, commandId: m.commandId, messages: [] };
        out.set(m.commandId, row);
      }
      row.messages.push(m);
    }
    return [...out.values()];
  }

  async function progressPass(
    ex: Executor,
    items: RowProgress[],
    lock: boolean,
    refusedByDevice: Map<number, ProgressRefusal[]>,
  ): Promise<{ applied: AppliedProgress[]; left: RowProgress[] }> {
    const pairs = items.map((e) => ({ deviceId: e.device.id, commandId: e.commandId }));
    const rows = new Map<string, DeviceDeploymentState>();
    for (const dd of await deviceDeploymentsOfCommands(ex, pairs, { lock })) {
      rows.set(`${dd.deviceId}:${dd.commandId}`, dd);
    }
    const now = new Date();
    const writes: ProgressWrite[] = [];
    const itemOf = new Map<number, RowProgress>();
    const planned = new Map<string, Omit<AppliedProgress, 'log'>>();
    const restarted: number[] = [];
    const left: RowProgress[] = [];
    for (const sent of items) {
      const dd = rows.get(`${sent.device.id}:${sent.commandId}`);
      if (!dd) {
        continue;
      }
      const job = jobCache.get(dd.jobId) ?? (await jobOf(ex, dd.jobId));
      // only the job's steps and attempts are written; the others are refused, once: a second
      // pass sees only what the first accepted
      const { accepted, refused } = checkProgress(job.steps, sent.messages);
      if (refused.length > 0) {
        refusedByDevice.set(sent.device.id, [...(refusedByDevice.get(sent.device.id) ?? []), ...refused]);
      }
      const item = { ...sent, messages: accepted };
      const { fresh, isRestart } = unapplied(dd.progressSeq, item.messages);
      const last = fresh.at(-1);
      if (!last) {
        continue;
      }
      const asRead = {
        id: dd.id,
        expectedSeq: dd.progressSeq,
        expectedStatus: dd.status,
        progressSeq: last.seq,
      };
      itemOf.set(dd.id, item);
      if (isTerminal(dd.status)) {
        writes.push({ ...asRead, currentStepOrder: null, startedAt: null, logs: [] });
        continue;
      }
      // the agent started the command over: the new run replaces the old, whose logs are deleted
      // (under the row lock only)
      if (isRestart) {
        if (!lock) {
          left.push(item);
          continue;
        }
        restarted.push(dd.id);
      }
      // a step reported as not run is no attempt: it writes no log, and alone starts nothing
      const ran = fresh.filter((m) => !isNotRun(m));
      const isStart = dd.status === 'pending' && ran.length > 0;
      const logs = attemptsOf(ran).map((m) => ({ m, log: stepLogOf(m, job, now) }));
      writes.push({
        ...asRead,
        // the step the device is at, or failed at: reports of steps that did not run do not move it
        currentStepOrder: ran.at(-1)?.stepOrder ?? null,
        startedAt: isStart ? now : null,
        logs: logs.map((l) => l.log),
      });
      const row: DeviceDeploymentState = isStart ? { ...dd, status: 'running' } : dd;
      for (const { m, log } of logs) {
        planned.set(`${dd.id}/${log.stepOrder}/${log.attempt}`, { m, job, isStart, dd: row });
      }
    }
    await deleteStepLogs(ex, restarted);
    const written = await writeStepProgress(ex, writes, REBOOT_CODES);
    if (!lock) {
      for (const w of writes) {
        const item = itemOf.get(w.id);
        if (!written.rows.has(w.id) && item) {
          left.push(item); // changed since it was read: read again, locked
        }
      }
    }
    const applied = written.logs.flatMap((log) => {
      const p = planned.get(`${log.deviceDeploymentId}/${log.stepOrder}/${log.attempt}`);
      return p ? [{ ...p, log }] : [];
    });
    return { applied, left };
  }

  /** An attempt's log as a (merged) message writes it: the step's name, the notes, its times. */
  function stepLogOf(m: StepProgressMessage, job: JobRow, now: Date): ProgressWrite['logs'][number] {
    const step = job.steps.find((s) => s.stepOrder === m.stepOrder);
    const attempt = m.attempt ?? 1;
    const isFinal = m.status !== 'running';
    const startedAt = parseTime(m.startedAt, now);
    const completedAt = parseTime(m.completedAt, now);
    const stdout = keepHeadAndTail(m.stdout ?? '');
    const stderr = keepHeadAndTail(m.stderr ?? '');
    return {
      stepOrder: m.stepOrder,
      stepName: step?.stepName ?? `Step ${m.stepOrder}`,
      attempt,
      status: m.status,
      startedAt,
      stdoutLog: stdout.text,
      stdoutCutBytes: stdout.cutBytes,
      stderrLog: stderr.text,
      stderrCutBytes: stderr.cutBytes,
      ...(isFinal && {
        exitCode: m.exitCode ?? null,
        completedAt,
        durationMs: Math.min(INT4_MAX, Math.max(0, completedAt.getTime() - startedAt.getTime())),
        errorMessage: m.errorMessage ?? null,
        output: notesFor(m, step?.retryCount ?? 0, attempt),
      }),
    };
  }

  /** Marks running the jobs whose first devices just started, then tells the portal. */
  async function publishProgress(applied: AppliedProgress[]) {
    const starting = new Set(
      applied.filter((a) => a.isStart && !runningJobs.has(a.job.id)).map((a) => a.job.id),
    );
    if (starting.size > 0) {
      await startJobs(db, [...starting]);
      if (runningJobs.size + starting.size > JOB_CACHE_SIZE) {
        runningJobs.clear();
      }
      for (const id of starting) {
        runningJobs.add(id);
      }
    }
    for (const { m, job, dd, log, isStart } of applied) {
      if (isStart) {
        markUnsettled(job.id, dd);
      }
      await hub.send(
        job.tenantId,
        deploymentKey(job.id),
        'step_update',
        {
          deploymentId: job.id,
          deviceDeploymentId: dd.id,
          ...(dd.deviceGuid && { deviceId: dd.deviceGuid }),
          stepOrder: m.stepOrder,
          stepName: log.stepName,
          status: log.status,
          attempt: log.attempt,
          exitCode: log.exitCode,
          errorMessage: log.errorMessage,
          durationMs: log.durationMs,
          startedAt: log.startedAt?.toISOString() ?? null,
          completedAt: log.completedAt?.toISOString() ?? null,
          ...(m.stdout && { stdout: m.stdout }),
          ...(m.stderr && { stderr: m.stderr }),
          // the device's site: a site-limited subscriber gets only their sites' steps (R2-3)
        },
        dd.siteId,
      );
    }
  }

  queue.onCommandResult(onResult);
  queue.onStepProgress(onProgress);

  return {
    kick() {
      if (!isStopped) {
        void tick();
      }
    },
    tick,
    start() {
      timer = setInterval(() => void tick(), options.schedulerIntervalMs);
      timer.unref();
      void tick();
    },
    async stop() {
      isStopped = true;
      if (timer) {
        clearInterval(timer);
      }
      await running;
      if (settleTimer) {
        clearTimeout(settleTimer);
        settleTimer = null;
        if (unsettled.size > 0) {
          settling = settleChanged().then(
            () => undefined,
            () => undefined,
          );
        }
      }
      await settling;
    },
    publishJob,
    settleJob,
  };
}
