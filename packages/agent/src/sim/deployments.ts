import { STEP_TYPES } from '@outpost/contract/step-catalog';
import type { StepType } from '@outpost/contract/step-catalog';
import type { StepExecutor } from '../actions/step-executor';
import type { DeploymentRunner } from '../deployment/runner';
import { exitCodeMessage, timeoutMessage } from '../steps/context';
import type { StepContext, StepHandler, StepOutcome } from '../steps/context';
import { runStepLoop } from '../steps/deployment-loop';
import { runMessageStep } from '../steps/message';
import { runRebootStep, withRebootOnRequest } from '../steps/reboot';
import { runWaitStep } from '../steps/wait';
import type { Rng } from './rng';
import type { ConditionProbes } from '../steps/conditions';
import { simulatedConditionProbes } from './sim-conditions';

// Deployments on a simulated machine: the step library's own loop (step order, retries as
// attempts, fail_deployment_on_error, cancel, output capping and reports) with handlers that
// start no process and touch no disk. Each attempt takes a while, prints a few plausible lines,
// and fails with probability `failureRate` (a non-zero exit code and stderr). A step whose
// simulated duration is longer than its timeout fails with the library's timeout words.
//
// A CMD command can steer the simulation, so tests and demos get the outcome they ask for:
// an unconditional `exit N` ends the step with exit code N (a command with branches, such as
// `if exist … (exit /b 0) else (exit /b 1)`, is simulated like any other: its outcome is drawn),
// `sleep N` (or `timeout /t N`, `Start-Sleep N`) makes it take N seconds.
//
// Any step whose details hold `sim-fail=N%` (a CMD `echo … & rem sim-fail=30%`, a script's
// comment, an installer's arguments) fails on N % of the simulated machines instead of the
// fleet's failure rate: a demo's rollout halts on it (docs/product/rollouts.md#waves).

/** The share of machines a step fails on, from a `sim-fail=N%` marker in its details, 0 to 1. */
export function simFailRate(details: Record<string, unknown>): number | null {
  const m = /\bsim-fail\s*[=:]\s*(\d+(?:\.\d+)?)\s*%?/i.exec(JSON.stringify(details));
  return m ? Math.min(100, Number(m[1])) / 100 : null;
}

export type SimDeploymentOptions = {
  /** chance that an attempt fails, 0 to 1 */
  failureRate: number;
  /** how long a step takes, drawn between min and max (simulated milliseconds) */
  stepDurationMs: { min: number; max: number };
  /** real milliseconds per simulated millisecond (tests run at 0.05: a 2 s step in 100 ms) */
  timeScale: number;
  /**
   * The simulated machine's OS: a package for another OS, or a Windows-only step on a Mac, fails
   * without pretending to run (the step loop's check, docs/architecture.md "Package targets").
   */
  platform: 'win32' | 'darwin' | 'linux';
  /** the machine's answers to step conditions (sim-conditions.ts); absent: a machine with no facts or sessions */
  conditionProbes?: ConditionProbes;
};

export const DEFAULT_SIM_DEPLOYMENTS: SimDeploymentOptions = {
  failureRate: 0.05,
  stepDurationMs: { min: 1000, max: 4000 },
  timeScale: 1,
  platform: 'win32',
};

/** Typical failure exit codes per step type (MSI 1603: "a fatal error during installation"). */
const FAILURE_CODES: Record<StepType, number[]> = {
  CMD: [1, 2, 5],
  POWERSHELL: [1],
  EXE: [1, 2, 1602],
  MSI: [1603, 1618, 1625],
  CUSTOM_ZIP: [1, 2],
  FOLDER: [5],
  REGISTRY: [1],
  REBOOT: [1],
  MESSAGE: [1],
  WAIT: [1],
};

type Script = { lines: string[]; failure: string; exitCode?: number; durationMs?: number };

const text = (details: Record<string, unknown>, key: string, fallback = '') => {
  const v = details[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback;
};

const fileName = (details: Record<string, unknown>, key: string, fallback: string) => {
  const ref = details[key] as { originalFilename?: unknown } | undefined;
  if (typeof ref?.originalFilename === 'string') {
    return ref.originalFilename;
  }
  const url = text(details, 'url');
  return url === '' ? fallback : (url.split('/').pop() ?? fallback);
};

/** `exit N` and `sleep N` in a simulated command line. */
function steering(command: string): Pick<Script, 'exitCode' | 'durationMs'> {
  const exits = [...command.matchAll(/\bexit(?:\s+\/b)?\s+(\d+)/gi)];
  const hasBranches = /\b(?:if|else)\b|\|\||&&/i.test(command);
  const sleep = /\b(?:sleep|timeout\s+\/t|start-sleep(?:\s+-s(?:econds)?)?)\s+(\d+(?:\.\d+)?)/i.exec(command);
  return {
    ...(exits.length > 0 && !hasBranches && { exitCode: Number(exits.at(-1)![1]) }),
    ...(sleep && { durationMs: Number(sleep[1]) * 1000 }),
  };
}

/** What a step of each type prints on the simulated machine. */
function script(type: StepType, details: Record<string, unknown>): Script {
  switch (type) {
    case 'CMD': {
      const command = text(details, 'command');
      const echoes = [...command.matchAll(/\becho\s+([^&|;\r\n]+)/gi)].map((m) => m[1]!.trim());
      return {
        lines:
          echoes.length > 0
            ? echoes
            : [`> ${command.split(/\r?\n/)[0]}`, 'The command completed successfully.'],
        failure: `'${command.split(/\s/)[0]}' failed: Access is denied.`,
        ...steering(command),
      };
    }
    case 'POWERSHELL': {
      const source =
        text(details, 'script_type') === 'file'
          ? fileName(details, 'script_file', 'script.ps1')
          : 'inline script';
      return {
        lines: [
          `Running ${source} (ExecutionPolicy ${text(details, 'execution_policy', 'Bypass')})`,
          'Checking prerequisites... OK',
          'Script completed.',
        ],
        failure:
          'The term is not recognized as the name of a cmdlet, function, script file, or operable program.',
        ...steering(text(details, 'script_content')),
      };
    }
    case 'EXE': {
      const file = fileName(details, 'file', 'setup.exe');
      return {
        lines: [
          `Downloading ${file}... 100%`,
          `Installing ${file}${text(details, 'arguments') ? ` ${text(details, 'arguments')}` : ''}...`,
          'Installation completed successfully.',
        ],
        failure: `${file}: installation failed; see the installer log for details.`,
      };
    }
    case 'MSI': {
      const file = fileName(details, 'file', 'package.msi');
      return {
        lines: [
          `Downloading ${file}... 100%`,
          `msiexec.exe /i "${file}" /qn /norestart ${text(details, 'properties')}`.trim(),
          'MSI (s): Product installation completed successfully.',
        ],
        failure:
          'MSI (s): Product: Installation failed. Error 1603: a fatal error occurred during installation.',
      };
    }
    case 'CUSTOM_ZIP': {
      const zip = fileName(details, 'zip_file', 'package.zip');
      return {
        lines: [
          `Downloading ${zip}... 100%`,
          `Extracting ${zip}...`,
          `Running ${text(details, 'main_executable', 'install.cmd')}...`,
          ...(details.cleanup === false ? [] : ['Removed the extracted files.']),
        ],
        failure: `${text(details, 'main_executable', 'install.cmd')}: the installation did not finish.`,
      };
    }
    case 'FOLDER':
      return {
        lines: [
          `Created ${text(details, 'folder_path')}`,
          ...(text(details, 'permissions')
            ? [
                'processed file: ' + text(details, 'folder_path'),
                'Successfully processed 1 files; Failed processing 0 files',
              ]
            : []),
        ],
        failure: `${text(details, 'folder_path')}: Access is denied.`,
      };
    case 'REGISTRY':
      return {
        lines: ['The operation completed successfully.'],
        failure: 'ERROR: Access is denied.',
      };
    // these run the real handlers through the simulated machine's step executor (below)
    case 'REBOOT':
    case 'MESSAGE':
    case 'WAIT':
      return { lines: [], failure: 'The step could not run.' };
  }
}

/**
 * Waits `ms`, or less when the signal aborts; true when it aborted. No time takes no timer: a
 * step of 0 ms reports its start, output and end together (on a busy simulator a chain of
 * zero-length timers spread them over hundreds of milliseconds).
 */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted || ms <= 0) {
    return Promise.resolve(signal.aborted);
  }
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function simulatedHandler(type: StepType, options: SimDeploymentOptions, rng: Rng): StepHandler {
  return async (details: Record<string, unknown>, ctx: StepContext): Promise<StepOutcome> => {
    const s = script(type, details);
    const { min, max } = options.stepDurationMs;
    const duration = s.durationMs ?? min + rng.next() * Math.max(0, max - min);
    const rate = simFailRate(details) ?? options.failureRate;
    const isFailure = s.exitCode === undefined ? rng.chance(rate) : s.exitCode !== 0;
    const exitCode = s.exitCode ?? (isFailure ? rng.pick(FAILURE_CODES[type]) : 0);
    const isTimeout = duration > ctx.timeoutMs;
    const runFor = Math.min(duration, ctx.timeoutMs);
    // the first line comes out at once, the rest spread over the run; a timed-out step prints
    // only what it got to
    const lines = s.lines.slice(0, isTimeout ? Math.max(1, s.lines.length - 1) : s.lines.length);
    const first = Math.min(200, runFor / 10);
    const every = (runFor - first) / lines.length;
    for (const [i, line] of lines.entries()) {
      if (await pause((i === 0 ? first : every) * options.timeScale, ctx.signal)) {
        return { status: 'cancelled', exitCode: null };
      }
      ctx.stdout(`${line}\n`);
    }
    if (await pause(every * options.timeScale, ctx.signal)) {
      return { status: 'cancelled', exitCode: null };
    }
    if (isTimeout) {
      return { status: 'failed', exitCode: null, errorMessage: timeoutMessage(ctx.timeoutMs) };
    }
    if (isFailure) {
      ctx.stderr(`${s.failure}\n`);
      ctx.stdout(`Process exited with code ${exitCode}\n`);
      return { status: 'failed', exitCode, errorMessage: exitCodeMessage(exitCode) };
    }
    // now and then an installer asks for a reboot (3010), as real ones do
    const code = (type === 'MSI' || type === 'EXE') && rng.chance(0.1) ? 3010 : 0;
    ctx.stdout(`Process exited with code ${code}\n`);
    return { status: 'completed', exitCode: code, rebootRequired: code === 3010 };
  };
}

/**
 * The deployment runner of one simulated machine; `rng` makes it repeatable for a seed. REBOOT,
 * MESSAGE and WAIT run the real handlers against `stepExecutor` (the simulated machine's: a
 * message is recorded, a restart powers the machine off and on, a wait runs at `timeScale`).
 */
export function createSimulatedRunner(
  options: Partial<SimDeploymentOptions>,
  rng: Rng,
  stepExecutor?: StepExecutor,
): DeploymentRunner {
  const settings: SimDeploymentOptions = { ...DEFAULT_SIM_DEPLOYMENTS, ...options };
  const handlers = Object.fromEntries(
    STEP_TYPES.map((type) => [type, simulatedHandler(type, settings, rng)]),
  ) as Record<StepType, StepHandler>;
  handlers.REBOOT = runRebootStep;
  handlers.MESSAGE = runMessageStep;
  handlers.WAIT = runWaitStep;
  handlers.EXE = withRebootOnRequest(handlers.EXE);
  handlers.MSI = withRebootOnRequest(handlers.MSI);
  return (command, io) =>
    runStepLoop(command, {
      report: io.report,
      signal: io.signal,
      handlers,
      usesDisk: false,
      platform: settings.platform,
      conditionProbes: settings.conditionProbes ?? simulatedConditionProbes(null, settings.platform),
      workDir: settings.platform === 'win32' ? 'C:\\Windows\\Temp\\Outpost' : '/var/tmp/outpost',
      ...(stepExecutor && { device: { executor: stepExecutor, timeScale: settings.timeScale } }),
      fetchFile: () => Promise.reject(new Error('a simulated machine fetches no files')),
      download: () => Promise.reject(new Error('a simulated machine downloads nothing')),
      // the output of a simulated step is a few lines: send it as it comes, every 500 ms at most
      outputLimits: { flushIntervalMs: Math.max(10, 500 * settings.timeScale) },
    });
}
