import type { ProcessRunner } from '../steps/process-runner';
import { runDeployment } from '../steps/run-deployment';
import { createFileFetcher, downloadUrl } from './http-files';
import type { AgentCredentials } from './http-files';
import type { DeploymentRunner } from './runner';

// The real agent's deployment runner, apart from runner.ts so that the simulator (bundled into
// the server for the demo) never loads the real step handlers and their ZIP library.

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
