import type { RunDeploymentCommand } from '@outpost/contract/agent-protocol';
import type { StepType } from '@outpost/contract/step-catalog';
import type { z } from 'zod';
import { runCmdStep } from './cmd';
import type { StepHandler } from './context';
import { runCustomZipStep } from './custom-zip';
import { runStepLoop } from './deployment-loop';
import type { DeploymentDeps as LoopDeps, DeploymentResult } from './deployment-loop';
import { runExeStep } from './exe';
import { runFolderStep } from './folder';
import { runMessageStep } from './message';
import { runMsiStep } from './msi';
import { runPowerShellStep } from './powershell';
import { runRebootStep, withRebootOnRequest } from './reboot';
import { runRegistryStep } from './registry';
import { runWaitStep } from './wait';
import { systemConditionProbes } from './condition-probes';

// The real agent's deployments: the step loop (deployment-loop.ts) with the real handler of
// every step type.

export type {
  AttemptResult,
  DeploymentResult,
  RestartPoint,
  StepProgress,
  StepResult,
  StepResultStatus,
  StepStatus,
} from './deployment-loop';

export const STEP_HANDLERS: Record<StepType, StepHandler> = {
  CMD: runCmdStep,
  POWERSHELL: runPowerShellStep,
  EXE: withRebootOnRequest(runExeStep),
  MSI: withRebootOnRequest(runMsiStep),
  CUSTOM_ZIP: runCustomZipStep,
  FOLDER: runFolderStep,
  REGISTRY: runRegistryStep,
  REBOOT: runRebootStep,
  MESSAGE: runMessageStep,
  WAIT: runWaitStep,
};

export type DeploymentDeps = Omit<LoopDeps, 'handlers'> & {
  /** replaces the real handler of some step types (tests) */
  handlers?: Partial<Record<StepType, StepHandler>>;
};

export function runDeployment(
  command: z.infer<typeof RunDeploymentCommand>,
  deps: DeploymentDeps,
): Promise<DeploymentResult> {
  return runStepLoop(command, {
    ...deps,
    handlers: { ...STEP_HANDLERS, ...deps.handlers },
    conditionProbes: deps.conditionProbes ?? systemConditionProbes(deps.platform ?? process.platform),
  });
}
