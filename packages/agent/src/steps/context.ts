import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FileRef } from '@outpost/contract/step-catalog';
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
 * Fetches an uploaded file from the server into `dir` (the attempt's scratch folder, removed
 * afterwards); resolves to the local path it was written to. The caller checks its sha256.
 */
export type FetchFile = (file: AgentFileRef, signal: AbortSignal, dir: string) => Promise<string>;
/** Downloads a URL (EXE/MSI source_type url) to `dest`. */
export type Download = (url: string, dest: string, signal: AbortSignal) => Promise<void>;

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

export type StepOutcome =
  | { status: 'completed'; exitCode: number | null; rebootRequired: boolean }
  | { status: 'failed'; exitCode: number | null; errorMessage: string }
  | { status: 'cancelled'; exitCode: null };

export type StepContext = {
  platform: NodeJS.Platform;
  /** the package working directory (spec: a product-named folder in the temp folder) */
  workDir: string;
  /** a folder of this step's own, for downloads and scripts; removed by the caller */
  scratchDir: string;
  runner: ProcessRunner;
  timeoutMs: number;
  signal: AbortSignal;
  fetchFile: FetchFile;
  download: Download;
  zipLimits: ZipLimits;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
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

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/** The local path of a step's uploaded file, its hash checked before anything uses it. */
export async function fetchVerified(ctx: StepContext, raw: unknown, label: string): Promise<string> {
  const parsed = AgentFileRef.safeParse(raw);
  if (!parsed.success) {
    throw new StepError(`${label}: no uploaded file`, false);
  }
  const ref = parsed.data;
  let local: string;
  try {
    await mkdir(ctx.scratchDir, { recursive: true });
    local = await ctx.fetchFile(ref, ctx.signal, ctx.scratchDir);
  } catch (err) {
    throw new StepError(`Could not download ${ref.originalFilename}: ${errorText(err)}`);
  }
  if (ref.sha256 !== undefined) {
    const actual = await sha256File(local);
    if (actual !== ref.sha256.toLowerCase()) {
      throw new StepError(`${ref.originalFilename} failed its integrity check (sha256 mismatch); not used`);
    }
  }
  return local;
}

/** An EXE or MSI source: the uploaded file or a download from its URL. */
export async function resolveSource(
  ctx: StepContext,
  details: Record<string, unknown>,
  label: string,
  defaultName: string,
): Promise<string> {
  if (details.source_type === 'url') {
    const url = typeof details.url === 'string' ? details.url : '';
    const dest = path.join(ctx.scratchDir, fileNameFromUrl(url, defaultName));
    await mkdir(ctx.scratchDir, { recursive: true });
    try {
      await ctx.download(url, dest, ctx.signal);
    } catch (err) {
      throw new StepError(`Could not download ${url}: ${errorText(err)}`);
    }
    return dest;
  }
  return fetchVerified(ctx, details.file, label);
}

/** The last path segment of a URL, reduced to safe characters. */
export function fileNameFromUrl(url: string, fallback: string): string {
  let name: string;
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    name = '';
  }
  name = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return name === '' ? fallback : name;
}

export async function makeExecutable(ctx: StepContext, file: string): Promise<void> {
  if (!isWindows(ctx)) {
    await chmod(file, 0o755);
  }
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
