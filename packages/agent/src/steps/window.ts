import type { DeploymentStep, RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { z } from 'zod';

// Maintenance windows on the device (docs/product/rollouts.md#maintenance-windows): a run of a job
// "only inside maintenance windows" carries when the device's window closes; a step whose timeout
// would pass that end is not started, and the run stops there for the server to resume it at that
// step in the next window. A resumed run (`startAtStep`) skips the steps an earlier window ran.

type Command = Pick<z.infer<typeof RunDeploymentCommand>, 'steps' | 'windowEndsAt' | 'startAtStep'>;

/** The steps this run runs, in step order (from `startAtStep` when resumed). */
export function stepsToRun(command: Command): DeploymentStep[] {
  const from = command.startAtStep ?? 0;
  return [...command.steps].filter((s) => s.stepOrder >= from).sort((a, b) => a.stepOrder - b.stepOrder);
}

/** Whether the step, started now, could still run when the window closes (its whole timeout). */
export function windowClosesBefore(
  step: Pick<DeploymentStep, 'timeoutSeconds'>,
  command: Command,
  now: Date,
): boolean {
  if (command.windowEndsAt === undefined) {
    return false;
  }
  return now.getTime() + step.timeoutSeconds * 1000 > Date.parse(command.windowEndsAt);
}

/** The agent log's line for a run stopped before a step. */
export const windowClosedNote = (stepOrder: number, windowEndsAt: string) =>
  `The maintenance window closes at ${windowEndsAt}, before step ${stepOrder} could end: it was not started and runs in the next window`;
