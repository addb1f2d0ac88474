import type { DeploymentJob, DeploymentJobDetail, DeviceDeployment } from '@outpost/contract/deployments';
import type { DeploymentUpdatePayload, StepUpdatePayload } from '@outpost/contract/live';

// Live changes applied to what the screens show (docs/product/live-updates.md#channels — a
// deployment_update carries the deployment id plus the fields that changed; a step_update the
// step order plus its fields). Pure, so the list, the details and the tests share them.

/**
 * The job with the update's fields applied. `status`, the counters and the times are always the
 * job's; a device's own status comes as `deviceStatus` beside its `deviceDeploymentId`.
 */
export function applyJobUpdate<T extends DeploymentJob>(job: T, u: DeploymentUpdatePayload): T {
  if (job.id !== u.deploymentId) {
    return job;
  }
  return {
    ...job,
    ...(u.jobName !== undefined && { name: u.jobName }),
    ...(u.total_devices !== undefined && { total_devices: u.total_devices }),
    ...(u.completed_devices !== undefined && { completed_devices: u.completed_devices }),
    ...(u.failed_devices !== undefined && { failed_devices: u.failed_devices }),
    ...(u.status !== undefined && { status: u.status }),
    ...(u.started_at !== undefined && { started_at: u.started_at }),
    ...(u.completed_at !== undefined && { completed_at: u.completed_at }),
    ...(u.rollout_state !== undefined && { rollout_state: u.rollout_state }),
  };
}

/** A rollout's new state, wave and reason shown at once (docs/product/rollouts.md); the waves follow with the next fetch. */
function applyRolloutUpdate(detail: DeploymentJobDetail, u: DeploymentUpdatePayload): DeploymentJobDetail {
  const rollout = detail.rollout;
  if (!rollout || (u.rollout_state == null && u.current_wave === undefined)) {
    return detail;
  }
  return {
    ...detail,
    rollout: {
      ...rollout,
      ...(u.rollout_state != null && { state: u.rollout_state }),
      ...(u.current_wave !== undefined && { current_wave: u.current_wave }),
      ...(u.rollout_reason !== undefined && { state_reason: u.rollout_reason }),
    },
  };
}

/** The detail with the job fields and, for a device's update, its row changed (its times follow
 * with the next fetch). */
export function applyDetailUpdate(
  detail: DeploymentJobDetail,
  u: DeploymentUpdatePayload,
): DeploymentJobDetail {
  const job = applyRolloutUpdate(applyJobUpdate(detail, u), u);
  if (u.deviceDeploymentId === undefined) {
    return job;
  }
  return {
    ...job,
    deployments: job.deployments.map((d) =>
      d.id !== u.deviceDeploymentId
        ? d
        : {
            ...d,
            ...(u.deviceStatus !== undefined && { status: u.deviceStatus }),
            ...(u.errorMessage !== undefined && { error_message: u.errorMessage }),
            ...(u.deviceHold !== undefined && { hold: u.deviceHold }),
          },
    ),
  };
}

/** A step starting or moving on a device shows as that device's current step. */
export function applyStepToDevice(detail: DeploymentJobDetail, u: StepUpdatePayload): DeploymentJobDetail {
  if (detail.id !== u.deploymentId || u.deviceDeploymentId === undefined) {
    return detail;
  }
  return {
    ...detail,
    deployments: detail.deployments.map((d): DeviceDeployment =>
      d.id !== u.deviceDeploymentId
        ? d
        : {
            ...d,
            current_step_order: u.stepOrder,
            current_step_name: u.stepName ?? d.current_step_name,
            ...(d.status === 'pending' && u.status === 'running' && { status: 'running' }),
          },
    ),
  };
}
