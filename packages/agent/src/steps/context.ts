import { z } from 'zod';
import { FileRef } from '@outpost/contract/step-catalog';
import type { StepExecutor } from '../actions/step-executor';
import type { ProcessRequest, ProcessRunner } from './process-runner';

// What a step handler gets: the platform, its folders, the process runner wired to the step's
// output, timeout and cancellation, and the file sources. Handlers return how the step ended
// or throw a StepError whose message goes to the step log as it is.

/** A step's uploaded file as the agent receives it: the catalogue's reference, plus its hash. */
export const AgentFileRef = FileRef.extend({
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .optional(),
});
export type AgentFileRef = z.infer<typeof AgentFileRef>;

/**
 * The bytes of a file as they arrive. The step library writes them itself, into the attempt's
 * private scratch folder (SECURITY.md "The agent's file-handling rules"); a source never
 * chooses where a file lands.
 */
export type FileSource = {
  body: AsyncIterable<Uint8Array>;
  /** what the source says the bytes hash to (the server's X-Content-SHA256), if it says */
  sha256?: string;
  /** where the bytes came from after redirects (URL downloads) */
  finalUrl?: string;
  /** stops the transfer when the bytes are not wanted after all */
  cancel?: () => Promise<void>;
  /** the file name the response gives (Content-Disposition), if it gives one */
  fileName?: string;
};

/** Opens an uploaded file from the server. */
export type FetchFile = (file: AgentFileRef, signal: AbortSignal) => Promise<FileSource>;
/** Opens a URL (EXE/MSI source_type url). */
export type Download = (url: string, signal: AbortSignal) => Promise<FileSource>;

export type ZipLimits = { maxEntries: number; maxUncompressedBytes: number };
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxUncompressedBytes: 2 * 1024 * 1024 * 1024,
};

/** A failure with the words the step log shows. `isRetryable` false: re-running cannot help. */
export class StepError extends Error {
  constructor(
    message: string,
    readonly isRetryable = true,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

/** A restart the step asks for once it has completed (docs/product/rollouts.md#reboot-message-and-wait-steps). */
export type RestartRequest = { delaySeconds: number; message?: string };

export type StepOutcome =
  | {
      status: 'completed';
      exitCode: number | null;
      rebootRequired: boolean;
      /** the step log's note (a message no one saw, a restart ordered) */
      note?: string;
      /** the device restarts after this step; the deployment goes on with the next step afterwards */
      restart?: RestartRequest;
    }
  | { status: 'failed'; exitCode: number | null; errorMessage: string }
  | { status: 'cancelled'; exitCode: null };

export type StepContext = {
  platform: NodeJS.Platform;
  /** the package working directory (product rule: a product-named folder in the temp folder) */
  workDir: string;
  /**
   * a private folder of this attempt's own (created and checked by the caller before the handler
   * runs, removed afterwards), for downloads and scripts
   */
  scratchDir: string;
  runner: ProcessRunner;
  timeoutMs: number;
  signal: AbortSignal;
  fetchFile: FetchFile;
  download: Download;
  zipLimits: ZipLimits;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** the device and its user (REBOOT, MESSAGE, WAIT): the step executor, and how fast time runs */
  device?: DeviceSteps;
  /** sets the step log's note while the step runs (a deferred reboot) */
  note?: (text: string) => void;
};

/** What the REBOOT, MESSAGE and WAIT steps act through. */
export type DeviceSteps = {
  executor: StepExecutor;
  /** real milliseconds per step millisecond (the simulator runs faster; default 1) */
  timeScale?: number;
};

export type StepHandler = (details: Record<string, unknown>, ctx: StepContext) => Promise<StepOutcome>;

/** The step log's words for a step that ran past its timeout_seconds. */
export const timeoutMessage = (timeoutMs: number) =>
  `Timed out after ${Math.round(timeoutMs / 1000)} seconds; the process was stopped`;

/** The step log's words for a process that ended with a code its step does not accept. */
export const exitCodeMessage = (code: number | null) =>
  code === null ? 'The process was killed' : `Exit code ${code}`;

/** The step log's words for a cancelled step. */
export const CANCELLED_MESSAGE = 'Deployment cancelled';

export const REBOOT_EXIT_CODES: readonly number[] = [3010, 1641];

export const isWindows = (ctx: StepContext) => ctx.platform === 'win32';

export function windowsOnly(what: string): StepError {
  return new StepError(`${what} runs only on Windows`, false);
}

/** Runs a program for a step and reads its exit code against the step's success codes. */
export async function runProgram(
  ctx: StepContext,
  program: Pick<ProcessRequest, 'file' | 'args' | 'cwd' | 'windowsVerbatimArguments' | 'isBackground'>,
  successCodes: readonly number[] = [0],
): Promise<StepOutcome> {
  const result = await ctx.runner({
    ...program,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onStdout: ctx.stdout,
    onStderr: ctx.stderr,
  });
  if (result.cancelled) {
    return { status: 'cancelled', exitCode: null };
  }
  if (result.timedOut) {
    return { status: 'failed', exitCode: result.exitCode, errorMessage: timeoutMessage(ctx.timeoutMs) };
  }
  if (result.spawnError !== undefined) {
    return {
      status: 'failed',
      exitCode: null,
      errorMessage: `Could not start ${program.file}: ${result.spawnError}`,
    };
  }
  if (result.isDetached) {
    ctx.stdout(
      'Started in the background (Wait for Completion is off); its output and exit code are not collected\n',
    );
    return { status: 'completed', exitCode: null, rebootRequired: false };
  }
  const code = result.exitCode;
  if (code !== null && successCodes.includes(code)) {
    return { status: 'completed', exitCode: code, rebootRequired: REBOOT_EXIT_CODES.includes(code) };
  }
  return {
    status: 'failed',
    exitCode: code,
    errorMessage: exitCodeMessage(code),
  };
}

/** "0,3010,1641" → [0, 3010, 1641] (the catalogue has already checked the format). */
export function parseExitCodes(text: unknown, fallback: string): number[] {
  const source = typeof text === 'string' && text.trim() !== '' ? text : fallback;
  return source
    .split(',')
    .map((s) => Number.parseInt(s.trim(), 10))
    .filter((n) => Number.isInteger(n));
}

/**
 * How a Windows program starts with its command line as typed. CreateProcess cannot start a
 * batch file (Node refuses it with spawn EINVAL), so .bat and .cmd go through cmd.exe as Node's
 * own `shell: true` does: /d skips AutoRun, /s with the outer quotes keeps the line as written.
 */
export function windowsInvocation(
  file: string,
  commandLine: string,
): Pick<ProcessRequest, 'file' | 'args' | 'windowsVerbatimArguments'> {
  if (/\.(bat|cmd)$/i.test(file)) {
    const line = commandLine === '' ? `"${file}"` : `"${file}" ${commandLine}`;
    return { file: 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
  }
  return { file, args: commandLine === '' ? [] : [commandLine], windowsVerbatimArguments: true };
}

/**
 * Splits an arguments field the way a POSIX shell would for plain words and quotes (no
 * expansion): `-a "b c" 'd'` → ['-a', 'b c', 'd'].
 */
export function splitArguments(text: unknown): string[] {
  if (typeof text !== 'string') {
    return [];
  }
  const args: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let hasToken = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) {
        quote = null;
      } else {
        current += ch;
      }
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      hasToken = true;
    } else if (/\s/.test(ch)) {
      if (hasToken) {
        args.push(current);
        current = '';
        hasToken = false;
      }
    } else {
      current += ch;
      hasToken = true;
    }
  }
  if (hasToken) {
    args.push(current);
  }
  return args;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The working directory a step asked for, or the package's. */
export function stepWorkingDirectory(ctx: StepContext, details: Record<string, unknown>): string {
  const wd = details.working_directory;
  return typeof wd === 'string' && wd.trim() !== '' ? wd.trim() : ctx.workDir;
}
