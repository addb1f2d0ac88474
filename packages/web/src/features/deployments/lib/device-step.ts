import type { DeviceDeployment } from '@outpost/contract/deployments';

// docs/product/deployments.md#details Deployment details — a device's "Current step" is the step it runs, or the step it ended
// at when it failed or was cancelled; a device that completed, or has not started, shows none.

export type ShownStep = { order: number; name: string };

export function currentStepOf(
  d: Pick<DeviceDeployment, 'status' | 'current_step_order' | 'current_step_name'>,
): ShownStep | null {
  if (d.current_step_order === null || d.status === 'completed' || d.status === 'pending') {
    return null;
  }
  return { order: d.current_step_order, name: d.current_step_name ?? `Step ${d.current_step_order}` };
}
