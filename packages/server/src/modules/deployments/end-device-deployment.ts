import type { Executor } from '../../lib/db';
import type { RequestContext } from '../../lib/context';
import type { CommandQueue } from '../../live/command-queue';
import type { DeploymentEngine } from './engine/deployment-engine';
import { updateDeviceDeployment } from './deployments.queries';
import type { DeviceDeploymentRow, JobRow } from './deployments.queries';
import { closeRunningStepLogs } from './step-logs.queries';

// Ending devices' parts of a job by hand: a cancelled job (deployments.service.ts) and the
// waiting devices an administrator ends (offline-devices.service.ts) end their rows the same way.

export type EndingQueue = Pick<CommandQueue, 'queueCommand' | 'dispatch' | 'finishCommand'>;

export type DevicePartEnd = {
  status: 'cancelled' | 'failed';
  /** the row's error message, also the finished command's error and the open step logs' */
  reason: string;
  /** whether a device that had taken the command is told to stop (a cancel command) */
  mayStop: boolean;
  /** how long that cancel command waits for the device */
  stopExpiryMs: number;
};

/**
 * Ends one device's part inside the caller's transaction: the row and its open step logs end,
 * its command is not offered again, and a device that had taken the command is told to stop.
 * `stopped` says whether that cancel command was queued (dispatch it after the commit).
 */
export async function endDevicePart(
  tx: Executor,
  commandQueue: EndingQueue,
  ctx: RequestContext,
  part: { id: number; deviceId: number | null; commandId: string | null },
  end: DevicePartEnd,
): Promise<{ row: DeviceDeploymentRow; stopped: boolean }> {
  const row = await updateDeviceDeployment(tx, part.id, {
    status: end.status,
    errorMessage: end.reason,
    completedAt: new Date(),
  });
  await closeRunningStepLogs(tx, part.id, end.status, end.reason);
  if (!part.commandId || part.deviceId === null) {
    return { row, stopped: false };
  }
  const wasUnfinished = await commandQueue.finishCommand(tx, part.deviceId, part.commandId, {
    status: 'failed',
    error: end.reason,
  });
  if (!wasUnfinished || !end.mayStop) {
    return { row, stopped: false };
  }
  await commandQueue.queueCommand(tx, {
    tenantId: ctx.tenantId,
    deviceId: part.deviceId,
    command: { kind: 'cancel', targetCommandId: part.commandId },
    createdBy: ctx.userId,
    expiresInMs: end.stopExpiryMs,
  });
  return { row, stopped: true };
}

/** After the commit: ring the stopped devices, then publish the job and each ended row. */
export async function announceEnded(
  engine: Pick<DeploymentEngine, 'publishJob'>,
  commandQueue: EndingQueue,
  out: { job: JobRow; ended: DeviceDeploymentRow[]; stopped: number[] },
): Promise<void> {
  await commandQueue.dispatch(out.stopped);
  await engine.publishJob(out.job);
  for (const dd of out.ended) {
    await engine.publishJob(out.job, dd);
  }
}
