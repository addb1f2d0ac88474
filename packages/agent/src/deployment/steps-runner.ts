import path from 'node:path';
import type { Executor } from '../actions/executor';
import type { DeviceSteps } from '../steps/context';
import type { ProcessRunner } from '../steps/process-runner';
import { runDeployment } from '../steps/run-deployment';
import { createFileFetcher, downloadUrl } from './http-files';
import type { AgentCredentials } from './http-files';
import type { DeploymentRunner } from './runner';

// The real agent's deployment runner, apart from runner.ts so that the simulator (bundled into
// the server for the demo) never loads the real step handlers and their ZIP library.

export type StepsRunnerOptions = AgentCredentials & {
  /**
   * the agent's private work folder (agentWorkDir); when absent each deployment gets a fresh
   * folder with a random name in the temp folder (steps/work-folders.ts)
   */
  workDir?: string;
  /** Windows: limits the work folder to SYSTEM and Administrators */
  secureFolder?: (dir: string) => Promise<void>;
  runner?: ProcessRunner;
  platform?: NodeJS.Platform;
  /** REBOOT, MESSAGE, WAIT: the step executor (docs/product/rollouts.md#reboot-message-and-wait-steps) */
  device?: DeviceSteps;
};

/**
 * SECURITY.md "The agent's file-handling rules": deployment files are staged in a folder of the
 * agent's own beside its state (the outbox, the journal), never in the shared temp folder where
 * another local account could prepare the path first.
 */
export function agentWorkDir(stateDir: string): string {
  return path.join(stateDir, 'work');
}

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
      secureFolder: options.secureFolder,
      device: options.device,
    });
}

/** The runner `outpost-agent run` uses: its work folder under the state folder, secured by the executor. */
export function createAgentStepsRunner(
  config: AgentCredentials & { stateDir: string },
  executor: Pick<Executor, 'secureFolder'>,
  extra: Pick<StepsRunnerOptions, 'runner' | 'platform' | 'device'> = {},
): DeploymentRunner {
  return createStepsRunner({
    server: config.server,
    deviceGuid: config.deviceGuid,
    agentSecret: config.agentSecret,
    workDir: agentWorkDir(config.stateDir),
    secureFolder: (dir) => executor.secureFolder(dir),
    ...extra,
  });
}
