import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { Db } from '../../../db/client';
import type { CommandQueue } from '../../../live/command-queue';
import type { DeviceDeploymentRow, JobRow } from '../deployments.queries';
import type { ResultInput } from './agent-results';
import type { Clock } from './clock';
import type { PublishJob } from './job-updates';
import type { Settler } from './settler';
import {
  claimOverdueDeviceDeployments,
  endDeviceDeployments,
  staleCommandRows,
  unsettledJobs,
} from './sweeper.queries';

// The sweep fails device deployments whose device never took the work before the expiry, went
// away mid-run and stayed away, or was removed; reconciles rows whose command ended without its
// result reaching us (a crash between the two); and settles active jobs whose counters disagree
// with their rows (an instance that stopped before its settler ran).

export const SWEEP_BATCH = 200;
/** a command that ended this long ago without changing its device row is reconciled */
export const RECONCILE_AFTER_MS = 10_000;

export type SweeperQueries = {
  claimOverdueDeviceDeployments: typeof claimOverdueDeviceDeployments;
  endDeviceDeployments: typeof endDeviceDeployments;
  staleCommandRows: typeof staleCommandRows;
  unsettledJobs: typeof unsettledJobs;
};

export type Sweeper = { sweep(): Promise<void> };

/** Why an overdue device row failed: its device was removed, never came online, or went away. */
export function overdueReason(dd: Pick<DeviceDeploymentRow, 'deviceId' | 'status'>, expiryHours: number) {
  if (dd.deviceId === null) {
    return messages.deviceRemoved;
  }
  return dd.status === 'pending'
    ? messages.deviceNeverOnline(expiryHours)
    : messages.deviceWentAway(expiryHours);
}

export function createSweeper(deps: {
  db: Db;
  commandQueue: Pick<CommandQueue, 'finishCommand' | 'findCommand'>;
  settler: Pick<Settler, 'settleJob' | 'markUnsettled' | 'isUnsettled'>;
  publishJob: PublishJob;
  /** applies a command's result as if it had just arrived (agent-results.ts) */
  applyResult: (result: ResultInput) => Promise<void>;
  expiryHours: number;
  clock: Clock;
  queries?: SweeperQueries;
}): Sweeper {
  const { db, commandQueue, settler, publishJob, clock } = deps;
  const queries = deps.queries ?? {
    claimOverdueDeviceDeployments,
    endDeviceDeployments,
    staleCommandRows,
    unsettledJobs,
  };

  async function failOverdue(): Promise<void> {
    const changed: { job: JobRow; dd: DeviceDeploymentRow }[] = [];
    await db.transaction(async (tx) => {
      const overdue = await queries.claimOverdueDeviceDeployments(tx, SWEEP_BATCH);
      for (const dd of overdue) {
        const reason = overdueReason(dd, deps.expiryHours);
        const ended: DeviceDeploymentRow = {
          ...dd,
          status: 'failed',
          errorMessage: reason,
          completedAt: new Date(clock.now()),
        };
        await queries.endDeviceDeployments(tx, [ended]);
        if (dd.commandId && dd.deviceId !== null) {
          await commandQueue.finishCommand(tx, dd.deviceId, dd.commandId, {
            status: 'failed',
            error: reason,
          });
        }
        changed.push({ job: (await settler.settleJob(tx, dd.jobId)).after, dd: ended });
      }
    });
    for (const c of changed) {
      await publishJob(c.job, c.dd);
    }
  }

  /** Device rows whose command ended (a result we could not apply, an expiry at reconnect). */
  async function reconcile(): Promise<void> {
    const stale = await queries.staleCommandRows(db, RECONCILE_AFTER_MS, SWEEP_BATCH);
    for (const r of stale) {
      const cmd = await commandQueue.findCommand(r.commandId);
      if (!cmd || (cmd.status !== 'completed' && cmd.status !== 'failed')) {
        continue;
      }
      await deps.applyResult({
        deviceId: r.deviceId,
        commandId: r.commandId,
        status: cmd.status,
        result: cmd.result ?? null,
        error: cmd.error ?? null,
      });
    }
  }

  return {
    async sweep() {
      await failOverdue();
      await reconcile();
      for (const jobId of await queries.unsettledJobs(db, SWEEP_BATCH)) {
        if (!settler.isUnsettled(jobId)) {
          settler.markUnsettled(jobId);
        }
      }
    },
  };
}
