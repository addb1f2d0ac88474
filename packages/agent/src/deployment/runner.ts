import type { RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { z } from 'zod';
import { CANCELLED_MESSAGE } from '../steps/context';
import type { ProcessRunner } from '../steps/process-runner';
import { runDeployment } from '../steps/run-deployment';
import type { DeploymentResult, StepProgress } from '../steps/run-deployment';
import { createFileFetcher, downloadUrl } from './http-files';
import type { AgentCredentials } from './http-files';

// What runs a run_deployment command: the step library on a real machine, a simulation in the
// fleet simulator. Either reports every attempt through `report` and stops on `signal`.

export type DeploymentCommand = z.infer<typeof RunDeploymentCommand>;

export type DeploymentRunner = (
  command: DeploymentCommand,
  io: { report: (progress: StepProgress) => void; signal: AbortSignal },
) => Promise<DeploymentResult>;

export type StepsRunnerOptions = AgentCredentials & {
  /** the package working directory; the library's default (a product-named temp folder) when absent */
  workDir?: string;
  runner?: ProcessRunner;
  platform?: NodeJS.Platform;
};

/** The real agent's runner: the step library with files from the server and URL downloads. */
export function createStepsRunner(options: StepsRunnerOptions): DeploymentRunner {
  const fetchFile = createFileFetcher(options);
  return (command, io) =>
    runDeployment(command, {
      report: io.report,
      signal: io.signal,
      fetchFile,
      download: downloadUrl,
      runner: options.runner,
      platform: options.platform,
      workDir: options.workDir,
    });
}

const MAX_ERROR_CHARS = 4000;

/** command_result.error of a deployment: why it did not complete, or null. */
export function deploymentError(result: DeploymentResult): string | null {
  if (result.status === 'completed') {
    return null;
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
