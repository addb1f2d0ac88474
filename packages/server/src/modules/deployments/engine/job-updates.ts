import { deploymentKey } from '@outpost/contract/live';
import type { DeploymentUpdatePayload, JobStatus } from '@outpost/contract/live';
import type { PortalHub } from '../../../live/portal-socket';
import type { DeviceDeploymentRow, JobRow } from '../deployments.queries';

// What the browser is told of a job: its deployment_update, with one device row when given.

const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];
export const isTerminal = (s: JobStatus) => TERMINAL.includes(s);

/** What a deployment_update tells of a device row. */
export type DeviceRowUpdate = Pick<
  DeviceDeploymentRow,
  'id' | 'deviceGuid' | 'siteId' | 'status' | 'errorMessage'
> &
  Partial<Pick<DeviceDeploymentRow, 'hold'>>;

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
    // a rollout's state (docs/product/rollouts.md#rollout-actions): the page refetches its waves
    ...(job.rolloutState && {
      rollout_state: job.rolloutState,
      current_wave: job.currentWave ?? 0,
      rollout_reason: job.rolloutStateReason,
    }),
    ...(device && {
      deviceDeploymentId: device.id,
      ...(device.deviceGuid && { deviceId: device.deviceGuid }),
      deviceStatus: device.status,
      errorMessage: device.errorMessage,
      ...(device.hold !== undefined && { deviceHold: device.hold }),
    }),
  };
}

export type PublishJob = (job: JobRow, device?: DeviceRowUpdate) => Promise<void>;

/** Publishes what changed in a job to its subscribers. */
export function createJobPublisher(portalHub: Pick<PortalHub, 'send'>): PublishJob {
  return async (job, device) => {
    // An update about one device goes only to those who may see its site (SECURITY.md R2-3).
    await portalHub.send(
      job.tenantId,
      deploymentKey(job.id),
      'deployment_update',
      jobUpdate(job, device),
      device ? device.siteId : undefined,
    );
  };
}
