import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import { isTerminal } from './engine/job-updates';
import {
  activeDeviceDeploymentsOf,
  countDeviceDeploymentsOutside,
  findJob,
  toJob,
  updateJob,
} from './deployments.queries';
import type { DeviceDeploymentRow } from './deployments.queries';
import { announceEnded, endDeviceParts } from './end-device-deployment';
import type { EndingQueue } from './end-device-deployment';
import { jobSiteIds } from './job-sites.queries';
import type { Db } from '../../db/client';
import type { DeploymentEngine } from './engine/deployment-engine';
import { rolloutMessages } from '@outpost/contract/rollout-messages';
import { emitJobEvent } from './job-events';

export type CancelDeps = {
  db: Db;
  engine: Pick<DeploymentEngine, 'publishJob' | 'settleJob'>;
  commandQueue: EndingQueue;
};

// Cancelling a job (docs/product/deployments.md#job-statuses), and a rollout's abort
// (docs/product/rollouts.md#rollout-actions), which cancels the same way.

/** How long a cancel waits for an offline device before it is dropped (the run was ended anyway). */
const CANCEL_COMMAND_EXPIRY_MS = 60 * 60 * 1000;

/**
 * Ends the locked job's unfinished device rows as cancelled by the caller: pending rows at once,
 * running agents get a cancel command (dispatch `stopped` after the commit).
 */
export async function endUnfinishedRows(
  tx: Executor,
  commandQueue: EndingQueue,
  ctx: RequestContext,
  jobId: number,
): Promise<{ ended: DeviceDeploymentRow[]; stopped: number[] }> {
  const end = {
    status: 'cancelled' as const,
    reason: messages.cancelledByUser(ctx.name),
    mayStop: true,
    stopExpiryMs: CANCEL_COMMAND_EXPIRY_MS,
  };
  const { rows, stopped } = await endDeviceParts(
    tx,
    commandQueue,
    ctx,
    await activeDeviceDeploymentsOf(tx, jobId),
    end,
  );
  return { ended: rows, stopped };
}

/** `cancel` of the deployments service: pending rows end at once, running agents get a cancel command. */
export async function cancelJob(deps: CancelDeps, ctx: RequestContext, id: number): Promise<DeploymentJob> {
  const { db, engine, commandQueue } = deps;
  const out = await db.transaction(async (tx) => {
    const job = await findJob(tx, ctx, id, { lock: true });
    if (!job) {
      throw notFound(messages.notFound, 'DEPLOYMENT_NOT_FOUND');
    }
    if (isTerminal(job.status)) {
      throw conflict(messages.notCancellable(job.status), 'DEPLOYMENT_NOT_CANCELLABLE');
    }
    if ((await countDeviceDeploymentsOutside(tx, ctx, id)) > 0) {
      throw forbidden(messages.cancelOutsideScope, 'DEPLOYMENT_OUTSIDE_SCOPE');
    }
    const { ended, stopped } = await endUnfinishedRows(tx, commandQueue, ctx, id);
    // a rollout ends with its job (docs/product/rollouts.md#rollout-actions)
    const endsRollout =
      job.rolloutState && job.rolloutState !== 'completed' && job.rolloutState !== 'aborted';
    const cancelled = await updateJob(tx, id, {
      status: 'cancelled',
      ...(endsRollout && {
        rolloutState: 'aborted' as const,
        rolloutStateReason: rolloutMessages.aborted(ctx.name ?? ctx.email),
        rolloutStateAt: new Date(),
      }),
    });
    await emitJobEvent(tx, cancelled);
    const { after } = await engine.settleJob(tx, id);
    await writeAudit(tx, ctx, {
      action: 'Cancel Deployment',
      resourceType: 'deployment',
      resourceId: id,
      details: `Cancelled ${job.name} (${ended.length} unfinished device${ended.length === 1 ? '' : 's'})`,
      oldValues: { status: job.status },
      newValues: { status: after.status },
      siteIds: await jobSiteIds(tx, id),
    });
    return { job: after, ended, stopped };
  });
  await announceEnded(engine, commandQueue, out);
  return toJob(out.job);
}
