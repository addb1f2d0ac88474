import type { RecordingExecutor, SystemExecutor } from './actions/executor';
import type { StepExecutor } from './actions/step-executor';
import type { AgentConfig } from './config';
import type { Logger } from './connection';
import type { DeploymentRunner } from './deployment/runner';
import { deviceConsent } from './remote/consent';
import { createFileHandlers } from './remote/file-transfers';
import { nodePtySpawner } from './remote/pty';
import type { RemoteHandlers } from './remote/remote-access';
import { createTerminals } from './remote/terminals';
import type { ScriptExecutor } from './scripts/run-script';

// What the agent does on this machine beyond connecting (main.ts `run`): deployments, scripts and
// remote access, each loaded when first used (docs/agent.md "Footprint").

/**
 * The step library (and its ZIP library) is loaded when the first deployment runs, not at start:
 * most of an agent's life has no deployment (docs/agent.md "Footprint").
 */
export function lazyStepsRunner(
  config: AgentConfig,
  executor: SystemExecutor | RecordingExecutor,
  stepExecutor: StepExecutor,
): DeploymentRunner {
  let runner: Promise<DeploymentRunner> | null = null;
  return async (command, io) => {
    runner ??= import('./deployment/steps-runner').then((m) =>
      m.createAgentStepsRunner(config, executor, { device: { executor: stepExecutor } }),
    );
    return (await runner)(command, io);
  };
}

/** The remote access handlers of this machine (docs/agent.md "Remote access"). */
export function remoteHandlers(config: AgentConfig, stepExecutor: StepExecutor, log: Logger): RemoteHandlers {
  // the terminal: a pseudo-terminal per session; consent and banner the way MESSAGE steps reach the user
  const terminals = createTerminals({
    spawner: () => nodePtySpawner(config.stateDir, log),
    consent: deviceConsent(stepExecutor),
    log,
  });
  return {
    terminal: terminals.terminal,
    policyChanged: (policy) => terminals.policyChanged(policy),
    connectionLost: () => terminals.connectionLost(),
    // file transfer: listings and transfers over HTTP with the device's credentials (remote/file-transfers.ts)
    files: createFileHandlers({
      server: config.server,
      deviceGuid: config.deviceGuid,
      agentSecret: config.agentSecret,
    }),
  };
}

/** Scripts (docs/agent.md "Scripts"): loaded when the first one runs, in the same work folder. */
export function lazyScriptExecutor(
  config: AgentConfig,
  executor: SystemExecutor | RecordingExecutor,
): ScriptExecutor {
  let run: Promise<ScriptExecutor> | null = null;
  return async (command, io) => {
    run ??= Promise.all([import('./scripts/run-script'), import('./deployment/steps-runner')]).then(
      ([s, r]) =>
        s.createScriptExecutor({
          workDir: r.agentWorkDir(config.stateDir),
          secureFolder: (dir) => executor.secureFolder(dir),
        }),
    );
    return (await run)(command, io);
  };
}
