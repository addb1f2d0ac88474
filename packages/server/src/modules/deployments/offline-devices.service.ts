import type {
  DeploymentJobDetail,
  DeviceDeployment,
  EndWaitingDevicesBody,
  EndWaitingDevicesResponse,
} from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict, notFound } from '../../lib/errors';
import type { CommandQueue } from '../../live/command-queue';
import type { RequestContext } from '../../lib/context';
import type { DeploymentEngine } from './engine/deployment-engine';
import { isTerminal } from './engine/job-updates';
import { findJob, listDeviceDeployments, toJob } from './deployments.queries';
import type { JobRow } from './deployments.queries';
import { announceEnded, endDeviceParts } from './end-device-deployment';
import { offlineWaitOf } from './offline-wait';
import { offlineWaitsOf } from './offline-waits.queries';
import type { OfflineWaitRow } from './offline-waits.queries';

// Devices a job waits for (docs/architecture.md, "Devices a job waits for";
// docs/decisions/2026-11-26-offline-devices-in-a-job.md): the details say since when a device is
// offline and when its part expires, and an administrator ends those parts now (fail or cancel)
// instead of waiting up to the offline expiry.

/** How long the stop order waits for the device (it ran the work when it went away). */
const CANCEL_COMMAND_EXPIRY_MS = 24 * 60 * 60 * 1000;

export type OfflineDevicesDeps = {
  db: Db;
  engine: Pick<DeploymentEngine, 'publishJob' | 'settleJob'>;
  commandQueue: Pick<CommandQueue, 'queueCommands' | 'dispatch' | 'finishCommands'>;
};

/** The details' device rows with their waits, and how many wait (the caller's rows only). */
export async function withOfflineWaits(
  db: Executor,
  ctx: RequestContext,
  job: JobRow,
  deployments: DeviceDeployment[],
): Promise<Pick<DeploymentJobDetail, 'deployments' | 'waiting_offline_devices'>> {
  const now = new Date();
  // a finished job waits for nobody (its rows have all ended)
  const rows = isTerminal(job.status) ? [] : await offlineWaitsOf(db, ctx, job.id);
  const waits = new Map(rows.map((w) => [w.id, offlineWaitOf(w, job.steps, now)]));
  return {
    deployments: deployments.map((d) => ({ ...d, offline_wait: waits.get(d.id) ?? null })),
    waiting_offline_devices: waits.size,
  };
}

export function createOfflineDevicesService({ db, engine, commandQueue }: OfflineDevicesDeps) {
  /** The rows the body names (each must be the caller's and waiting), or all waiting ones. */
  async function chosenRows(
    tx: Executor,
    ctx: RequestContext,
    jobId: number,
    ids: number[] | undefined,
  ): Promise<OfflineWaitRow[]> {
    const waiting = await offlineWaitsOf(tx, ctx, jobId, { lock: true });
    if (!ids) {
      if (waiting.length === 0) {
        throw conflict(messages.noWaitingDevices, 'NO_WAITING_DEVICES');
      }
      return waiting;
    }
    const byId = new Map(waiting.map((w) => [w.id, w]));
    const visible = new Map((await listDeviceDeployments(tx, ctx, jobId)).map((d) => [d.id, d]));
    return [...new Set(ids)].map((id) => {
      const row = byId.get(id);
      if (row) {
        return row;
      }
      const dd = visible.get(id);
      // another site's row (or another job's) reads as one that does not exist
      if (!dd) {
        throw notFound(messages.deviceDeploymentNotFound, 'DEVICE_DEPLOYMENT_NOT_FOUND');
      }
      throw conflict(messages.deviceNotWaiting(dd.hostname ?? `Device ${dd.id}`), 'DEVICE_NOT_WAITING');
    });
  }

  return {
    // Administrators only (the route's access), in their tenant (404 otherwise) and their sites
    // (another site's row is not found; "all" means all the caller sees).
    async end(
      ctx: RequestContext,
      jobId: number,
      body: EndWaitingDevicesBody,
    ): Promise<EndWaitingDevicesResponse> {
      const out = await db.transaction(async (tx) => {
        const job = await findJob(tx, ctx, jobId, { lock: true });
        if (!job) {
          throw notFound(messages.notFound, 'DEPLOYMENT_NOT_FOUND');
        }
        if (isTerminal(job.status)) {
          throw conflict(messages.notWaitingJob(job.status), 'DEPLOYMENT_NOT_ACTIVE');
        }
        const rows = await chosenRows(tx, ctx, jobId, body.device_deployment_ids);
        const end = {
          status: body.action === 'fail' ? ('failed' as const) : ('cancelled' as const),
          reason:
            body.action === 'fail'
              ? messages.failedWhileOffline(ctx.name)
              : messages.cancelledWhileOffline(ctx.name),
          stopExpiryMs: CANCEL_COMMAND_EXPIRY_MS,
        };
        // the commands are not offered again at reconnect; a device that had taken one is told to stop
        const { rows: ended, stopped } = await endDeviceParts(
          tx,
          commandQueue,
          ctx,
          rows.map((w) => ({ ...w, mayStop: w.status === 'running' })),
          { ...end, mayStop: false },
        );
        const { after } = await engine.settleJob(tx, jobId);
        const verb = body.action === 'fail' ? 'Failed' : 'Cancelled';
        const names = rows.map((w) => w.hostname ?? `Device ${w.deviceId}`);
        await writeAudit(tx, ctx, {
          action: body.action === 'fail' ? 'Fail Offline Devices' : 'Cancel Offline Devices',
          resourceType: 'deployment',
          resourceId: jobId,
          details: `${verb} ${rows.length} offline device${rows.length === 1 ? '' : 's'} of ${job.name}: ${names.join(', ')}`,
          oldValues: { status: job.status, device_deployment_ids: rows.map((w) => w.id) },
          newValues: { status: after.status, device_status: ended[0]?.status ?? null },
          siteIds: ended.map((d) => d.siteId),
        });
        return { job: after, ended, stopped };
      });
      await announceEnded(engine, commandQueue, out);
      return { job: toJob(out.job), ended: out.ended.map((d) => d.id) };
    },
  };
}

export type OfflineDevicesService = ReturnType<typeof createOfflineDevicesService>;
