import { STDERR_MARK } from '@outpost/contract/script-runs';
import type { ScriptExecutor } from '../scripts/run-script';
import { createRng } from './rng';
import type { Rng } from './rng';
import { simFailRate } from './deployments';

// Scripts on a simulated machine (docs/product/scripts.md#runs): no process and no disk. The run
// prints what the body's echo / Write-Output / print lines say, a few at a time, then ends with
// exit code 0, or fails on `failureRate` of the machines (a non-zero code and a stderr line).
// The body steers it as a CMD step's command does: `exit N` ends with code N, `sleep N` (or
// `Start-Sleep N`, `time.sleep(N)`) takes N seconds, `sim-fail=N%` fails on N % of the machines.

export type SimScriptOptions = {
  failureRate: number;
  /** how long a run takes without `sleep`, drawn between min and max (simulated ms) */
  durationMs: { min: number; max: number };
  /** real ms per simulated ms */
  timeScale: number;
};

export const DEFAULT_SIM_SCRIPTS: SimScriptOptions = {
  failureRate: 0.05,
  durationMs: { min: 300, max: 2500 },
  timeScale: 1,
};

/** The lines a body prints, as far as a simulation can tell. */
export function printedLines(body: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:echo|Write-Output|Write-Host|print)\s*\(?\s*(?:["'](.*?)["']|(.+?))\s*\)?\s*;?\s*$/gim;
  for (const m of body.matchAll(re)) {
    out.push((m[1] ?? m[2] ?? '').trim());
  }
  return out.slice(0, 200);
}

function steering(body: string): { exitCode?: number; durationMs?: number } {
  const exit = [...body.matchAll(/^\s*exit(?:\s+\/b)?\s+(\d+)\s*$/gim)].at(-1);
  const sleep = /\b(?:sleep|start-sleep(?:\s+-s(?:econds)?)?|time\.sleep\()\s*(\d+(?:\.\d+)?)/i.exec(body);
  return {
    ...(exit && { exitCode: Number(exit[1]) }),
    ...(sleep && { durationMs: Number(sleep[1]) * 1000 }),
  };
}

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

export function createSimulatedScriptExecutor(
  rng: Rng,
  options: Partial<SimScriptOptions> = {},
  now: () => number = Date.now,
): ScriptExecutor {
  const settings = { ...DEFAULT_SIM_SCRIPTS, ...options };
  return async (command, io) => {
    const startedAt = now();
    const step = { stepOrder: 1, attempt: 1 } as const;
    io.report({ ...step, status: 'running', startedAt: new Date(startedAt).toISOString() });
    const steer = steering(command.body);
    const failRate = simFailRate({ body: command.body }) ?? settings.failureRate;
    const isFailing = steer.exitCode === undefined ? rng.chance(failRate) : steer.exitCode !== 0;
    const exitCode = steer.exitCode ?? (isFailing ? rng.pick([1, 2, 127]) : 0);
    const duration = steer.durationMs ?? rng.int(settings.durationMs.min, settings.durationMs.max);
    const printed = printedLines(command.body);
    const lines = printed.length > 0 ? printed : [`Running ${command.name}`, 'Done'];
    const end = (status: 'completed' | 'failed' | 'cancelled', code: number | null, error: string | null) => {
      const at = now();
      io.report({
        ...step,
        status,
        exitCode: code,
        ...(error !== null && { errorMessage: error }),
        completedAt: new Date(at).toISOString(),
      });
      return { status, exitCode: code, durationMs: at - startedAt, error };
    };
    const every = duration / (lines.length + 1);
    for (const line of lines) {
      if (await pause(every * settings.timeScale, io.signal)) {
        return end('cancelled', null, 'The run was cancelled');
      }
      io.report({ ...step, status: 'running', stdout: `${line}\n` });
    }
    if (duration > command.timeoutSeconds * 1000) {
      return end(
        'failed',
        null,
        `The script ran longer than its timeout of ${command.timeoutSeconds} s and was stopped`,
      );
    }
    if (await pause(every * settings.timeScale, io.signal)) {
      return end('cancelled', null, 'The run was cancelled');
    }
    if (exitCode !== 0) {
      io.report({
        ...step,
        status: 'running',
        stdout: `${STDERR_MARK}error: the script failed (simulated)\n`,
      });
      return end('failed', exitCode, `The script exited with code ${exitCode}`);
    }
    return end('completed', 0, null);
  };
}

/** A fleet machine's scripts: they print what their echo lines say and fail as the fleet's steps do. */
export function fleetScripts(
  options: { failureRate?: number; timeScale?: number; stepDurationMs?: { min: number; max: number } },
  seed: number,
  i: number,
): ScriptExecutor {
  return createSimulatedScriptExecutor(createRng((seed * 37 + i) ^ 0x5c41), {
    failureRate: options.failureRate ?? DEFAULT_SIM_SCRIPTS.failureRate,
    timeScale: options.timeScale ?? DEFAULT_SIM_SCRIPTS.timeScale,
    durationMs: options.stepDurationMs ?? DEFAULT_SIM_SCRIPTS.durationMs,
  });
}
