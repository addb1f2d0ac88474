import type { RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { z } from 'zod';
import { CANCELLED_MESSAGE } from '../steps/context';
import type { DeploymentResult, StepProgress } from '../steps/run-deployment';

// What runs a run_deployment command: the step library on a real machine, a simulation in the
// fleet simulator. Either reports every attempt through `report` and stops on `signal`.

export type DeploymentCommand = z.infer<typeof RunDeploymentCommand>;

export type DeploymentRunner = (
  command: DeploymentCommand,
  io: { report: (progress: StepProgress) => void; signal: AbortSignal },
) => Promise<DeploymentResult>;

const MAX_ERROR_CHARS = 4000;

/** command_result.error of a deployment: why it did not complete, or null. */
export function deploymentError(result: DeploymentResult): string | null {
  if (result.status === 'completed') {
    return null;
  }
  if (result.waitingForWindowAtStep !== undefined) {
    return `Window closed before step ${result.waitingForWindowAtStep}`;
  }
  if (result.status === 'cancelled') {
    return CANCELLED_MESSAGE;
  }
  // the step that stopped the deployment is the last one that failed (the rest did not run)
  const failed = result.steps.filter((s) => s.status === 'failed').pop();
  if (!failed) {
    return 'The deployment failed';
  }
  const why = failed.attempts.at(-1)?.errorMessage;
  return `Step ${failed.stepOrder} (${failed.stepName}) failed${why ? `: ${why}` : ''}`.slice(
    0,
    MAX_ERROR_CHARS,
  );
}
