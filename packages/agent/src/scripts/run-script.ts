import type { RunScriptCommand } from '@outpost/contract/agent-protocol';
import { SCRIPT_STEP_ORDER } from '@outpost/contract/script-runs';
import { SCRIPT_LIMITS } from '@outpost/contract/scripts';
import type { StepProgress } from '../steps/deployment-loop';
import { writePrivateFile } from '../steps/private-files';
import { spawnRunner } from '../steps/process-runner';
import type { ProcessRunner } from '../steps/process-runner';
import { openWorkFolders } from '../steps/work-folders';
import {
  interpreterMissing,
  scriptCommandLine,
  scriptEnv,
  scriptFileName,
  unsupportedOn,
} from './script-command';
import { HeadAndTail, MergedLines, SecretMasker } from './script-output';

// The real agent's run of a run_script command (docs/agent.md "Scripts"): the body written to a
// new private file in the agent's work folder (SECURITY.md "The agent's file-handling rules"),
// the interpreter started on it through the step library's ProcessRunner (its own process group
// on POSIX, taskkill /T on Windows: timeout and cancel kill the whole tree), the output masked,
// merged and bounded (script-output.ts) and streamed as the job's one step.

export type ScriptOutcome = {
  status: 'completed' | 'failed' | 'cancelled';
  exitCode: number | null;
  durationMs: number;
  error: string | null;
};

export type ScriptIo = {
  report: (progress: StepProgress) => void;
  signal: AbortSignal;
  /** the secret parameters' values (fetched from the server at the start) */
  secrets: Record<string, string>;
};

/** Runs a run_script command: the real agent's (below) or the simulator's. */
export type ScriptExecutor = (command: RunScriptCommand, io: ScriptIo) => Promise<ScriptOutcome>;

export type ScriptExecutorOptions = {
  workDir?: string;
  secureFolder?: (dir: string) => Promise<void>;
  runner?: ProcessRunner;
  platform?: NodeJS.Platform;
  /** output chunks are sent this often at most (ms) */
  flushIntervalMs?: number;
  now?: () => number;
};

/** Says what happened in the step's final report and the outcome. */
function finish(
  io: ScriptIo,
  startedAt: number,
  now: () => number,
  status: ScriptOutcome['status'],
  exitCode: number | null,
  error: string | null,
): ScriptOutcome {
  const end = now();
  io.report({
    stepOrder: SCRIPT_STEP_ORDER,
    attempt: 1,
    status,
    exitCode,
    ...(error !== null && { errorMessage: error.slice(0, 4000) }),
    completedAt: new Date(end).toISOString(),
  });
  return { status, exitCode, durationMs: end - startedAt, error };
}

export function createScriptExecutor(options: ScriptExecutorOptions = {}): ScriptExecutor {
  const platform = options.platform ?? process.platform;
  const runner = options.runner ?? spawnRunner;
  const now = options.now ?? Date.now;
  const flushMs = options.flushIntervalMs ?? 300;

  return async (command, io) => {
    const startedAt = now();
    io.report({
      stepOrder: SCRIPT_STEP_ORDER,
      attempt: 1,
      status: 'running',
      startedAt: new Date(startedAt).toISOString(),
    });
    const unsupported = unsupportedOn(command.language, platform);
    if (unsupported) {
      return finish(io, startedAt, now, 'failed', null, unsupported);
    }
    const folders = await openWorkFolders({
      workDir: options.workDir,
      deviceDeploymentId: command.deviceDeploymentId,
      platform,
      usesDisk: true,
      secureFolder: options.secureFolder,
    });
    // masked per stream, merged in order, bounded, sent in chunks
    let pending = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = () => {
      timer = undefined;
      if (pending !== '') {
        io.report({ stepOrder: SCRIPT_STEP_ORDER, attempt: 1, status: 'running', stdout: pending });
        pending = '';
      }
    };
    const bounded = new HeadAndTail(SCRIPT_LIMITS.outputKeptBytes, (text) => {
      pending += text;
      timer ??= setTimeout(send, flushMs);
    });
    const merged = new MergedLines((text) => bounded.push(text));
    const secrets = Object.values(io.secrets);
    const maskers = { stdout: new SecretMasker(secrets), stderr: new SecretMasker(secrets) };
    const take = (stream: 'stdout' | 'stderr') => (text: string) =>
      merged.push(stream, maskers[stream].push(text));
    try {
      const dir = await folders.prepareScratch(SCRIPT_STEP_ORDER, 1);
      // Windows PowerShell 5.1 reads a file without a byte order mark as the ANSI code page
      const body =
        command.language === 'powershell' && platform === 'win32' ? `\uFEFF${command.body}` : command.body;
      const file = await writePrivateFile(dir, scriptFileName(command.language), body, { platform });
      const line = scriptCommandLine(command.language, file.path, platform);
      const result = await runner({
        ...line,
        cwd: dir,
        timeoutMs: command.timeoutSeconds * 1000,
        signal: io.signal,
        env: scriptEnv(command.params, io.secrets),
        onStdout: take('stdout'),
        onStderr: take('stderr'),
      });
      for (const stream of ['stdout', 'stderr'] as const) {
        merged.push(stream, maskers[stream].end());
      }
      merged.end();
      bounded.end();
      if (timer) {
        clearTimeout(timer);
      }
      send();
      await folders.removeScratch(dir).catch(() => undefined);
      if (result.spawnError !== undefined) {
        return finish(io, startedAt, now, 'failed', null, interpreterMissing(line.file, result.spawnError));
      }
      if (result.cancelled) {
        return finish(io, startedAt, now, 'cancelled', null, 'The run was cancelled');
      }
      if (result.timedOut) {
        return finish(
          io,
          startedAt,
          now,
          'failed',
          null,
          `The script ran longer than its timeout of ${command.timeoutSeconds} s and was stopped`,
        );
      }
      const code = result.exitCode;
      return code === 0
        ? finish(io, startedAt, now, 'completed', 0, null)
        : finish(io, startedAt, now, 'failed', code, `The script exited with code ${code ?? 'unknown'}`);
    } catch (err) {
      if (timer) {
        clearTimeout(timer);
      }
      send();
      return finish(io, startedAt, now, 'failed', null, err instanceof Error ? err.message : String(err));
    } finally {
      await folders.close().catch(() => undefined);
    }
  };
}
