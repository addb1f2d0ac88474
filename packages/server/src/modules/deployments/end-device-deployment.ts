import type { Executor } from '../../lib/db';
import type { RequestContext } from '../../lib/context';
import type { CommandQueue } from '../../live/command-queue';
import type { DeploymentEngine } from './engine/deployment-engine';
import type { DeviceDeploymentRow, JobRow } from './deployments.queries';
import { closeRunningStepLogsOf, endDeviceDeploymentRows } from './end-device-deployment.queries';

// Ending devices' parts of a job by hand: a cancelled job (deployments.service.ts) and the
// waiting devices an administrator ends (offline-devices.service.ts) end their rows the same way.

export type EndingQueue = Pick<CommandQueue, 'queueCommands' | 'dispatch' | 'finishCommands'>;

export type DevicePartEnd = {
  status: 'cancelled' | 'failed';
  /** the row's error message, also the finished command's error and the open step logs' */
  reason: string;
  /** whether a device that had taken the command is told to stop (a cancel command) */
  mayStop: boolean;
  /** how long that cancel command waits for the device */
  stopExpiryMs: number;
};

/** A device's part to end: its row, device and command; `mayStop` overrides the end's. */
export type DevicePart = { id: number; deviceId: number | null; commandId: string | null; mayStop?: boolean };

/**
 * Ends devices' parts inside the caller's transaction, a few statements for all of them: the
 * rows and their open step logs end, their commands are not offered again, and each device that
 * had taken its command is told to stop. `stopped` holds those devices (dispatch them after the
 * commit); `rows` are the ended rows in the order of `parts`.
 */
export async function endDeviceParts(
  tx: Executor,
  commandQueue: EndingQueue,
  ctx: RequestContext,
  parts: readonly DevicePart[],
  end: DevicePartEnd,
): Promise<{ rows: DeviceDeploymentRow[]; stopped: number[] }> {
  const ids = parts.map((p) => p.id);
  const rows = await endDeviceDeploymentRows(tx, ids, {
    status: end.status,
    errorMessage: end.reason,
    completedAt: new Date(),
  });
  await closeRunningStepLogsOf(tx, ids, end.status, end.reason);
  const withCommand = parts.flatMap((p) =>
    p.commandId && p.deviceId !== null ? [{ ...p, deviceId: p.deviceId, commandId: p.commandId }] : [],
  );
  const unfinished = await commandQueue.finishCommands(
    tx,
    withCommand.map((p) => ({
      deviceId: p.deviceId,
      commandId: p.commandId,
      status: 'failed',
      error: end.reason,
    })),
  );
  const toStop = withCommand.filter((p, i) => unfinished[i] && (p.mayStop ?? end.mayStop));
  await commandQueue.queueCommands(
    tx,
    toStop.map((p) => ({
      tenantId: ctx.tenantId,
      deviceId: p.deviceId,
      command: { kind: 'cancel' as const, targetCommandId: p.commandId },
      createdBy: ctx.userId,
      expiresInMs: end.stopExpiryMs,
    })),
  );
  return { rows, stopped: toStop.map((p) => p.deviceId) };
}

/** endDeviceParts for one part. */
export async function endDevicePart(
  tx: Executor,
  commandQueue: EndingQueue,
  ctx: RequestContext,
  part: DevicePart,
  end: DevicePartEnd,
): Promise<{ row: DeviceDeploymentRow; stopped: boolean }> {
  const { rows, stopped } = await endDeviceParts(tx, commandQueue, ctx, [part], end);
  if (!rows[0]) {
    throw new Error(`device deployment ${part.id} not found`);
  }
  return { row: rows[0], stopped: stopped.length > 0 };
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
