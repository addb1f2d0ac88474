import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { deploymentKey } from '@outpost/contract/live';
import type { Db } from '../../../db/client';
import type { Executor } from '../../../lib/db';
import { createGroupCommit } from '../../../lib/group-commit';
import { isUuid } from '../../../lib/uuid';
import type { ProgressRefusal, StepProgressEvent } from '../../../live/agent-reports';
import type { DeviceRef } from '../../../live/device-state';
import type { PortalHub } from '../../../live/portal-socket';
import type { JobRow, WrittenStepLog } from '../deployments.queries';
import { checkProgress, isNotRun } from '../step-log-rules';
import {
  deleteStepLogs,
  deviceDeploymentsOfCommands,
  readJobById,
  startJobs,
  writeStepProgress,
} from './agent-progress.queries';
import type { ProgressWrite } from './agent-progress.queries';
import { AGENT_BATCH, AGENT_BATCH_LANES } from './agent-results';
import type { Clock } from './clock';
import type { DeviceDeploymentState } from './device-rows.queries';
import { isTerminal } from './job-updates';
import { attemptsOf, REBOOT_CODES, rebootHoldOf, stepLogOf, unapplied } from './progress-messages';
import type { Settler } from './settler';

// Step progress from agents updates step logs and device rows, each message once (progress
// carries a seq), without a job lock; a device's first progress starts its job, and its row's
// change is settled later (settler.ts). Every applied attempt goes to the browser as a step_update.

/** job rows kept for agent messages (their steps, name and tenant never change) */
const JOB_CACHE_SIZE = 500;

export type ProgressQueries = {
  deleteStepLogs: typeof deleteStepLogs;
  deviceDeploymentsOfCommands: typeof deviceDeploymentsOfCommands;
  readJobById: typeof readJobById;
  startJobs: typeof startJobs;
  writeStepProgress: typeof writeStepProgress;
};

/** A device's messages for one of its commands (one device row), in the order they were sent. */
type RowProgress = { device: DeviceRef; commandId: string; messages: StepProgressMessage[] };

type AppliedProgress = {
  m: StepProgressMessage;
  job: JobRow;
  dd: DeviceDeploymentState;
  log: WrittenStepLog;
  isStart: boolean;
};

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

/** What a pass over a batch of progress needs: the queries, the job of a row, the time. */
type PassContext = {
  queries: ProgressQueries;
  /** a job's output as it may be stored and shown (a script run's secrets masked) */
  maskOutput?: OutputMask;
  /** the job of a device row: from the cache, else read (and cached) */
  cachedJob: (jobId: number) => JobRow | undefined;
  jobOf: (ex: Executor, jobId: number) => Promise<JobRow>;
  now: Date;
};

/** Masks what must never be stored or shown in a job's output (docs/product/scripts.md#secrets). */
export type OutputMask = (job: JobRow, text: string) => string;

function masked(mask: OutputMask | undefined, job: JobRow, messages: StepProgressMessage[]) {
  if (!mask) {
    return messages;
  }
  return messages.map((m) => ({
    ...m,
    ...(m.stdout && { stdout: mask(job, m.stdout) }),
    ...(m.stderr && { stderr: mask(job, m.stderr) }),
    ...(m.errorMessage && { errorMessage: mask(job, m.errorMessage) }),
  }));
}

async function progressPass(
  { queries, cachedJob, jobOf, now, maskOutput }: PassContext,
  ex: Executor,
  items: RowProgress[],
  lock: boolean,
  refusedByDevice: Map<number, ProgressRefusal[]>,
): Promise<{ applied: AppliedProgress[]; left: RowProgress[] }> {
  const pairs = items.map((e) => ({ deviceId: e.device.id, commandId: e.commandId }));
  const rows = new Map<string, DeviceDeploymentState>();
  for (const dd of await queries.deviceDeploymentsOfCommands(ex, pairs, { lock })) {
    rows.set(`${dd.deviceId}:${dd.commandId}`, dd);
  }
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
    const job = cachedJob(dd.jobId) ?? (await jobOf(ex, dd.jobId));
    // only the job's steps and attempts are written; the others are refused, once: a second
    // pass sees only what the first accepted
    const { accepted, refused } = checkProgress(job.steps, sent.messages);
    if (refused.length > 0) {
      refusedByDevice.set(sent.device.id, [...(refusedByDevice.get(sent.device.id) ?? []), ...refused]);
    }
    const item = { ...sent, messages: masked(maskOutput, job, accepted) };
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
      rebootHold: rebootHoldOf(fresh),
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
  await queries.deleteStepLogs(ex, restarted);
  const written = await queries.writeStepProgress(ex, writes, REBOOT_CODES);
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

export type ProgressWriter = {
  /** stores a device's step progress; answers the messages refused */
  stepProgress(event: StepProgressEvent): Promise<ProgressRefusal[]>;
};

export function createProgressWriter(deps: {
  db: Db;
  settler: Pick<Settler, 'markUnsettled'>;
  portalHub: Pick<PortalHub, 'send'>;
  clock: Clock;
  queries?: ProgressQueries;
  /** stores completed steps' output in custom fields (step-output.ts) */
  storeOutputs?: (applied: AppliedProgress[]) => Promise<void>;
  maskOutput?: OutputMask;
}): ProgressWriter {
  const { db, settler, portalHub, clock, storeOutputs, maskOutput } = deps;
  const queries = deps.queries ?? {
    deleteStepLogs,
    deviceDeploymentsOfCommands,
    readJobById,
    startJobs,
    writeStepProgress,
  };
  const jobCache = new Map<number, JobRow>();
  /** jobs this instance saw running (their devices' later first messages need not start them) */
  const runningJobs = new Set<number>();

  async function jobOf(tx: Executor, jobId: number): Promise<JobRow> {
    const cached = jobCache.get(jobId);
    if (cached) {
      return cached;
    }
    const job = await queries.readJobById(tx, jobId);
    if (jobCache.size >= JOB_CACHE_SIZE) {
      jobCache.delete(jobCache.keys().next().value as number);
    }
    jobCache.set(jobId, job);
    return job;
  }

  // Progress is written in batches (lib/group-commit.ts): what arrives while a batch is being
  // written goes into the next. A device's messages are handled in order: a batch holds at most
  // one item per device, and an item is every step_progress message its socket had waiting (a
  // run, live/agent-connection.ts), applied together.
  const writeProgress = createGroupCommit({
    keyOf: (e: StepProgressEvent) => e.device.id,
    maxBatch: AGENT_BATCH,
    lanes: AGENT_BATCH_LANES,
    apply: async (events) => {
      const refused = await applyProgress(events);
      return events.map((e) => refused.get(e.device.id) ?? []);
    },
  });

  /**
   * A batch of progress: one read of the device rows and one statement that writes them and the
   * logs, with no transaction and no row lock held in between (writeStepProgress applies a row's
   * messages only while the row is as read). What that pass leaves (a row another writer changed
   * meanwhile, an agent that started a command over) goes through a second pass in a transaction
   * with the rows locked.
   */
  async function applyProgress(events: StepProgressEvent[]): Promise<Map<number, ProgressRefusal[]>> {
    const refused = new Map<number, ProgressRefusal[]>();
    const cachedJob = (jobId: number) => jobCache.get(jobId);
    const pass = { queries, cachedJob, jobOf, now: new Date(clock.now()), maskOutput };
    const first = await progressPass(pass, db, events.flatMap(byCommand), false, refused);
    await publishProgress(first.applied);
    if (first.left.length > 0) {
      const second = await db.transaction((tx) =>
        progressPass({ ...pass, now: new Date(clock.now()) }, tx, first.left, true, refused),
      );
      await publishProgress(second.applied);
    }
    return refused;
  }

  /** Marks running the jobs whose first devices just started, then tells the portal. */
  async function publishProgress(applied: AppliedProgress[]) {
    const starting = new Set(
      applied.filter((a) => a.isStart && !runningJobs.has(a.job.id)).map((a) => a.job.id),
    );
    if (starting.size > 0) {
      await queries.startJobs(db, [...starting]);
      if (runningJobs.size + starting.size > JOB_CACHE_SIZE) {
        runningJobs.clear();
      }
      for (const id of starting) {
        runningJobs.add(id);
      }
    }
    for (const { m, job, dd, log, isStart } of applied) {
      if (isStart) {
        settler.markUnsettled(job.id, dd);
      }
      await portalHub.send(
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
          ...(m.note && { note: m.note }),
          // the device's site: a site-limited subscriber gets only their sites' steps (R2-3)
        },
        dd.siteId,
      );
    }
    await storeOutputs?.(applied);
  }

  return {
    stepProgress(event) {
      const messages = event.messages.filter((m) => isUuid(m.commandId)); // others are not commands of ours
      return messages.length === 0 ? Promise.resolve([]) : writeProgress({ device: event.device, messages });
    },
  };
}
