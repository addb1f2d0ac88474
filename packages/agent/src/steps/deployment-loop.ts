import type {
  DeploymentStep,
  RunDeploymentCommand,
  StepProgressMessage,
} from '@outpost/contract/agent-protocol';
import { deploymentMessages } from '@outpost/contract/messages';
import { STEP_CATALOG, StepType, parseStepDetails } from '@outpost/contract/step-catalog';
import { deviceTargetOs, stepRunsOn, targetOsLabel } from '@outpost/contract/targets';
import type { TargetOs } from '@outpost/contract/targets';
import type { z } from 'zod';
import type {
  DeviceSteps,
  Download,
  FetchFile,
  RestartRequest,
  StepContext,
  StepHandler,
  StepOutcome,
  ZipLimits,
} from './context';
import { CANCELLED_MESSAGE, DEFAULT_ZIP_LIMITS, StepError, errorText } from './context';
import { CappedOutput, DEFAULT_OUTPUT_LIMITS } from './output';
import type { OutputLimits } from './output';
import type { ProcessRunner } from './process-runner';
import { spawnRunner } from './process-runner';
import { stepsToRun, windowClosedNote, windowClosesBefore } from './window';
import { openWorkFolders } from './work-folders';
import { gateStep } from './condition-gate';
import type { ConditionProbes } from './conditions';
import type { WorkFolders } from './work-folders';

// docs/product/deployments.md#running-on-devices — a device's deployment: the steps in step_order, each with its timeout,
// retries and fail-on-error rule, every attempt reported as it starts, while it prints and when
// it ends. The caller (the agent's command handler) turns reports into step_progress messages.

/** A step_progress message without the envelope the agent's connection adds. */
export type StepProgress = Omit<StepProgressMessage, 'type' | 'messageId' | 'commandId' | 'seq'>;

export type DeploymentDeps = {
  report: (progress: StepProgress) => void;
  fetchFile: FetchFile;
  download: Download;
  /** aborting cancels: the running process tree is killed, it and the rest report cancelled */
  signal?: AbortSignal;
  runner?: ProcessRunner;
  platform?: NodeJS.Platform;
  /**
   * The agent's private work folder (the real agent: `<stateDir>/work`, agent-work-dir.ts). When
   * absent, a folder with a random name is created in the temp folder for the deployment and
   * removed after it. SECURITY.md "The agent's file-handling rules".
   */
  workDir?: string;
  /** Windows: limits the work folder to SYSTEM and Administrators (the executor's icacls) */
  secureFolder?: (dir: string) => Promise<void>;
  outputLimits?: Partial<OutputLimits>;
  zipLimits?: Partial<ZipLimits>;
  now?: () => Date;
  /**
   * What runs each step type: the real handlers (run-deployment.ts) or the fleet simulator's,
   * which start no process; with `usesDisk` false no working or scratch folder is created or
   * removed either. The loop imports no handler itself, so the simulator (bundled into the
   * server's demo) does not pull in the ZIP library.
   */
  handlers: Record<StepType, StepHandler>;
  usesDisk?: boolean;
  /** told why a run stopped before a step its maintenance window has no room for (window.ts) */
  onWindowClosed?: (note: string) => void;
  /** REBOOT, MESSAGE, WAIT: the step executor (docs/product/rollouts.md#reboot-message-and-wait-steps) */
  device?: DeviceSteps;
  /** where step conditions are checked (docs/product/rollouts.md#step-conditions) */
  conditionProbes?: ConditionProbes;
};

export type StepStatus = 'completed' | 'failed' | 'cancelled';
/** a step's or an attempt's status: 'skipped' when a condition was false (condition-gate.ts) */
export type StepResultStatus = StepStatus | 'skipped';

export type AttemptResult = {
  attempt: number;
  status: StepResultStatus;
  /** why the step did not run (a skipped step) */
  note?: string | null;
  exitCode: number | null;
  errorMessage: string | null;
  /** what was kept of the output (capped, with the truncation note) */
  stdout: string;
  stderr: string;
  startedAt: string;
  completedAt: string;
  /** exit code 3010 or 1641 among the step's success codes */
  rebootRequired: boolean;
  restart?: RestartRequest;
};

export type StepResult = {
  stepOrder: number;
  stepName: string;
  status: StepResultStatus;
  attempts: AttemptResult[];
  rebootRequired: boolean;
  /** the step asked for a restart: the loop stopped after it */
  restart?: RestartRequest;
};

/** Where a deployment stopped for a restart, and what it asked for. */
export type RestartPoint = RestartRequest & { stepOrder: number; attempt: number };

export type DeploymentResult = {
  /** failed only when a step with fail_deployment_on_error failed */
  status: StepStatus;
  rebootRequired: boolean;
  steps: StepResult[];
  /** the run stopped before this step: the maintenance window would close while it ran (window.ts) */
  waitingForWindowAtStep?: number;
  /** the deployment stopped for a restart (the steps after it have not run) */
  restart?: RestartPoint;
};

const FILE_FIELDS = ['file', 'zip_file', 'script_file'] as const;

type Settings = {
  command: z.infer<typeof RunDeploymentCommand>;
  deps: DeploymentDeps;
  signal: AbortSignal;
  runner: ProcessRunner;
  platform: NodeJS.Platform;
  folders: WorkFolders;
  outputLimits: OutputLimits;
  zipLimits: ZipLimits;
  now: () => Date;
};

export async function runStepLoop(
  command: z.infer<typeof RunDeploymentCommand>,
  deps: DeploymentDeps,
): Promise<DeploymentResult> {
  const platform = deps.platform ?? process.platform;
  const folders = await openWorkFolders({
    workDir: deps.workDir,
    deviceDeploymentId: command.deviceDeploymentId,
    platform,
    usesDisk: deps.usesDisk !== false,
    secureFolder: deps.secureFolder,
  });
  try {
    return await runSteps(command, deps, {
      command,
      deps,
      signal: deps.signal ?? new AbortController().signal,
      runner: deps.runner ?? spawnRunner,
      platform,
      folders,
      outputLimits: { ...DEFAULT_OUTPUT_LIMITS, ...deps.outputLimits },
      zipLimits: { ...DEFAULT_ZIP_LIMITS, ...deps.zipLimits },
      now: deps.now ?? (() => new Date()),
    });
  } finally {
    await folders.close();
  }
}

async function runSteps(
  command: z.infer<typeof RunDeploymentCommand>,
  deps: DeploymentDeps,
  settings: Settings,
): Promise<DeploymentResult> {
  const steps = stepsToRun(command);
  const results: StepResult[] = [];
  let status: StepStatus = 'completed';
  for (const step of steps) {
    if (status === 'completed' && settings.signal.aborted) {
      status = 'cancelled';
    }
    if (status === 'completed' && windowClosesBefore(step, command, settings.now())) {
      deps.onWindowClosed?.(windowClosedNote(step.stepOrder, command.windowEndsAt!));
      return {
        status: 'cancelled',
        rebootRequired: results.some((r) => r.rebootRequired),
        steps: results,
        waitingForWindowAtStep: step.stepOrder,
      };
    }
    if (status !== 'completed') {
      const why = status === 'cancelled' ? CANCELLED_MESSAGE : deploymentMessages.notRunEarlierFailed;
      deps.report({ stepOrder: step.stepOrder, status: 'cancelled', errorMessage: why });
      results.push({
        stepOrder: step.stepOrder,
        stepName: step.stepName,
        status: 'cancelled',
        attempts: [],
        rebootRequired: false,
      });
      continue;
    }
    const gate = { probes: deps.conditionProbes, report: deps.report, now: settings.now };
    const result = (await gateStep(step, results, gate)) ?? (await runStep(step, settings));
    results.push(result);
    if ('restart' in result && result.restart) {
      const attempt = result.attempts.length;
      return {
        status,
        rebootRequired: false,
        steps: results,
        restart: { ...result.restart, stepOrder: step.stepOrder, attempt },
      };
    }
    if (result.status === 'cancelled') {
      status = 'cancelled';
    } else if (result.status === 'failed' && step.failDeploymentOnError) {
      status = 'failed';
    }
  }
  return { status, rebootRequired: results.some((r) => r.rebootRequired), steps: results };
}

/** The step's type and checked details; file references keep the sha256 the catalogue drops. */
function prepare(
  step: DeploymentStep,
  settings: Settings,
): { handler: StepHandler; details: Record<string, unknown> } {
  const type = StepType.safeParse(step.stepType);
  if (!type.success) {
    throw new StepError(`Unknown step type: ${step.stepType}`, false);
  }
  assertRunsHere(type.data, settings);
  const parsed = parseStepDetails(type.data, step.stepDetails);
  if (!parsed.success) {
    throw new StepError(parsed.error, false);
  }
  const details = { ...parsed.data };
  for (const key of FILE_FIELDS) {
    if (key in details) {
      details[key] = step.stepDetails[key];
    }
  }
  return { handler: settings.deps.handlers[type.data], details };
}

/**
 * A package for another OS, or a step this OS cannot run, fails without running anything, on a
 * real machine and a simulated one alike (docs/architecture.md "Package targets").
 */
function assertRunsHere(type: StepType, settings: Settings): void {
  const here = platformTargetOs(settings.platform);
  const target = settings.command.targetOs === undefined ? null : deviceTargetOs(settings.command.targetOs);
  if (target !== null && target !== here) {
    throw new StepError(
      deploymentMessages.packageForOtherOs(targetOsLabel(target), targetOsLabel(here)),
      false,
    );
  }
  if (!stepRunsOn(type, here)) {
    throw new StepError(
      deploymentMessages.stepForOtherOs(STEP_CATALOG[type].label, targetOsLabel(here)),
      false,
    );
  }
}

/** The target OS a Node platform runs. */
export const platformTargetOs = (platform: NodeJS.Platform): TargetOs =>
  platform === 'win32' ? 'windows' : platform === 'darwin' ? 'macos' : 'linux';

async function runStep(step: DeploymentStep, settings: Settings): Promise<StepResult> {
  const attempts: AttemptResult[] = [];
  const total = step.retryCount + 1;
  for (let attempt = 1; attempt <= total; attempt += 1) {
    const { result, isRetryable } = await runAttempt(step, attempt, settings);
    attempts.push(result);
    const isLast = result.status !== 'failed' || !isRetryable || settings.signal.aborted;
    if (isLast || attempt === total) {
      return {
        stepOrder: step.stepOrder,
        stepName: step.stepName,
        status: settings.signal.aborted && result.status === 'failed' ? 'cancelled' : result.status,
        attempts,
        rebootRequired: result.rebootRequired,
        ...(result.restart && { restart: result.restart }),
      };
    }
  }
  // retryCount is never negative, so the loop always returns
  throw new Error('unreachable');
}

async function runAttempt(
  step: DeploymentStep,
  attempt: number,
  settings: Settings,
): Promise<{ result: AttemptResult; isRetryable: boolean }> {
  const { deps, folders, now } = settings;
  const stepOrder = step.stepOrder;
  const startedAt = now().toISOString();
  deps.report({ stepOrder, status: 'running', attempt, startedAt });
  const stdout = new CappedOutput(settings.outputLimits, (chunk) =>
    deps.report({ stepOrder, status: 'running', attempt, stdout: chunk }),
  );
  const stderr = new CappedOutput(settings.outputLimits, (chunk) =>
    deps.report({ stepOrder, status: 'running', attempt, stderr: chunk }),
  );
  let scratchDir: string | null = null;
  const ctx = (scratch: string): StepContext => ({
    platform: settings.platform,
    workDir: folders.workDir,
    scratchDir: scratch,
    runner: settings.runner,
    timeoutMs: step.timeoutSeconds * 1000,
    signal: settings.signal,
    fetchFile: deps.fetchFile,
    download: deps.download,
    zipLimits: settings.zipLimits,
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    device: deps.device,
    note: (note) => deps.report({ stepOrder, status: 'running', attempt, note }),
  });
  let outcome: StepOutcome;
  let isRetryable = true;
  try {
    const { handler, details } = prepare(step, settings);
    scratchDir = await folders.prepareScratch(stepOrder, attempt);
    outcome = await handler(details, ctx(scratchDir));
  } catch (err) {
    isRetryable = !(err instanceof StepError) || err.isRetryable;
    outcome = settings.signal.aborted
      ? { status: 'cancelled', exitCode: null }
      : { status: 'failed', exitCode: null, errorMessage: errorText(err) };
  } finally {
    if (scratchDir !== null) {
      await folders.removeScratch(scratchDir);
    }
  }
  if (outcome.status === 'completed' && outcome.rebootRequired) {
    stdout.push(`\n[Outpost: reboot required (exit code ${String(outcome.exitCode)})]\n`);
  }
  stdout.flush();
  stderr.flush();
  const errorMessage =
    outcome.status === 'failed'
      ? outcome.errorMessage
      : outcome.status === 'cancelled'
        ? CANCELLED_MESSAGE
        : null;
  const completedAt = now().toISOString();
  deps.report({
    stepOrder,
    status: outcome.status,
    attempt,
    exitCode: outcome.exitCode,
    errorMessage,
    startedAt,
    completedAt,
    ...(outcome.status === 'completed' && outcome.note !== undefined && { note: outcome.note }),
  });
  return {
    result: {
      attempt,
      status: outcome.status,
      exitCode: outcome.exitCode,
      errorMessage,
      stdout: stdout.text,
      stderr: stderr.text,
      startedAt,
      completedAt,
      rebootRequired: outcome.status === 'completed' && outcome.rebootRequired,
      ...(outcome.status === 'completed' && outcome.restart && { restart: outcome.restart }),
    },
    isRetryable,
  };
}
