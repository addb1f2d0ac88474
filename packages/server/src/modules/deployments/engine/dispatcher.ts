import type { Db } from '../../../db/client';
import type { Executor } from '../../../lib/db';
import type { CommandQueue } from '../../../live/command-queue';
import type { JobRow } from '../deployments.queries';
import { runDeploymentOf, runScriptOf, updateAgentOf } from '../job-command';
import type { Clock } from './clock';
import type { WindowGate } from './windows';
import {
  claimDueJobs,
  deviceOsTypes,
  markJobDispatched,
  pendingDeviceDeploymentsOf,
  setDeviceDeploymentCommands,
} from './dispatcher.queries';

// The dispatcher claims due jobs with FOR UPDATE SKIP LOCKED, so several instances never
// dispatch a job twice, and queues one run_deployment command per device (the database is the
// queue: an offline device gets it when it reconnects), then rings the devices' doorbells. An
// agent_update job's rows get an update_agent command instead (docs/product/rollouts.md#agent-updates-in-waves),
// a script job's a run_script command (docs/product/scripts.md#runs).

/**
 * Due jobs claimed per transaction: one, so each job's doorbell rings as soon as its commands are
 * committed and its devices' offers overlap the next job's dispatch (ten jobs posted at once were
 * one transaction, and the first device heard of its work when the tenth job was written).
 */
export const CLAIM_BATCH = 1;

export type DispatcherQueries = {
  claimDueJobs: typeof claimDueJobs;
  pendingDeviceDeploymentsOf: typeof pendingDeviceDeploymentsOf;
  setDeviceDeploymentCommands: typeof setDeviceDeploymentCommands;
  markJobDispatched: typeof markJobDispatched;
};

/**
 * Queues one run_deployment per row and gives the rows their commands and expiry, in the
 * caller's transaction (the dispatcher's due jobs, and a rollout's next wave); answers the
 * devices to ring after the commit. Removed devices are left out; the sweep fails their rows.
 */
export async function queueRunDeployments(
  tx: Executor,
  deps: {
    commandQueue: Pick<CommandQueue, 'queueCommands'>;
    offlineExpiryMs: number;
    clock: Clock;
    queries?: Pick<DispatcherQueries, 'setDeviceDeploymentCommands'>;
    /** a job run only inside maintenance windows holds devices outside theirs (windows.ts) */
    windows?: Pick<WindowGate, 'admit'>;
  },
  job: JobRow,
  ddRows: readonly { id: number; deviceId: number | null }[],
): Promise<number[]> {
  const present = ddRows.flatMap((dd) => (dd.deviceId === null ? [] : [{ dd, deviceId: dd.deviceId }]));
  const rows: { dd: { id: number }; deviceId: number; windowEndsAt?: string }[] = deps.windows
    ? await deps.windows.admit(tx, job, present)
    : present;
  if (rows.length === 0) {
    return [];
  }
  const osTypes =
    job.kind === 'agent_update'
      ? await deviceOsTypes(
          tx,
          rows.map((r) => r.deviceId),
        )
      : null;
  const commandIds = await deps.commandQueue.queueCommands(
    tx,
    rows.map(({ dd, deviceId, windowEndsAt }) => ({
      tenantId: job.tenantId,
      deviceId,
      command: osTypes
        ? updateAgentOf(job, osTypes.get(deviceId) ?? null)
        : job.kind === 'script'
          ? runScriptOf(job, dd.id)
          : {
              kind: 'run_deployment' as const,
              jobId: job.id,
              deviceDeploymentId: dd.id,
              ...runDeploymentOf(job),
              ...(windowEndsAt === undefined ? {} : { windowEndsAt }),
            },
      createdBy: job.createdBy,
      expiresInMs: deps.offlineExpiryMs,
    })),
  );
  await (deps.queries?.setDeviceDeploymentCommands ?? setDeviceDeploymentCommands)(
    tx,
    rows.map(({ dd }, i) => ({ id: dd.id, commandId: commandIds[i]! })),
    new Date(deps.clock.now() + deps.offlineExpiryMs),
  );
  return rows.map((r) => r.deviceId);
}

export type Dispatcher = {
  /** dispatches up to CLAIM_BATCH due jobs; answers how many it claimed */
  dispatchDue(): Promise<number>;
};

export function createDispatcher(deps: {
  db: Db;
  commandQueue: Pick<CommandQueue, 'queueCommands' | 'dispatch'>;
  offlineExpiryMs: number;
  clock: Clock;
  /** told, per dispatched job, how long after it became due it was dispatched (the metrics) */
  onDispatched?: (lagSeconds: number) => void;
  queries?: DispatcherQueries;
  /** a job run only inside maintenance windows holds devices outside theirs (windows.ts) */
  windows?: Pick<WindowGate, 'admit'>;
}): Dispatcher {
  const { db, commandQueue, offlineExpiryMs, clock } = deps;
  const queries = deps.queries ?? {
    claimDueJobs,
    pendingDeviceDeploymentsOf,
    setDeviceDeploymentCommands,
    markJobDispatched,
  };

  async function dispatchDue(): Promise<number> {
    const woken = new Set<number>();
    const jobs = await db.transaction(async (tx) => {
      const due = await queries.claimDueJobs(tx, CLAIM_BATCH);
      for (const job of due) {
        const rows = await queries.pendingDeviceDeploymentsOf(tx, job.id);
        const deviceIds = await queueRunDeployments(
          tx,
          { commandQueue, offlineExpiryMs, clock, queries, windows: deps.windows },
          job,
          rows,
        );
        for (const deviceId of deviceIds) {
          woken.add(deviceId);
        }
        await queries.markJobDispatched(tx, job.id);
      }
      return due;
    });
    const now = clock.now();
    for (const job of jobs) {
      // due at its schedule, or at creation when it has none (database clock vs this instance's)
      const dueAt = (job.scheduledAt ?? job.createdAt).getTime();
      deps.onDispatched?.(Math.max(0, now - dueAt) / 1000);
    }
    await commandQueue.dispatch([...woken]);
    return jobs.length;
  }

  return { dispatchDue };
}
