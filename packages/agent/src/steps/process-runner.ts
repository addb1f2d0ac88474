import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

// Every program a deployment step starts goes through one ProcessRunner, so tests record the
// Windows commands (msiexec, reg, icacls, attrib, powershell.exe) and never run them here.

export type ProcessRequest = {
  file: string;
  args: readonly string[];
  cwd: string;
  /** the step's timeout_seconds: the whole process tree is killed when it passes */
  timeoutMs: number;
  /** aborting kills the whole process tree (a cancelled deployment) */
  signal?: AbortSignal;
  onStdout: (text: string) => void;
  onStderr: (text: string) => void;
  /** Windows: pass the arguments as written (cmd.exe /s /c "…", msiexec properties) */
  windowsVerbatimArguments?: boolean;
  /** CMD with wait_for_completion off: resolve once started; no output, exit code or timeout */
  isBackground?: boolean;
  /** variables added to the agent's environment (a script's parameters, docs/agent.md "Scripts") */
  env?: Record<string, string>;
};

export type ProcessResult = {
  /** null when the process was killed or could not start */
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  /** why the program could not start (ENOENT, EACCES …) */
  spawnError?: string;
  /** started in the background and left running */
  isDetached?: boolean;
};

export type ProcessRunner = (request: ProcessRequest) => Promise<ProcessResult>;

/**
 * Kills the process and everything it started. On POSIX the child leads its own process group
 * (spawned detached), so a negative pid reaches grandchildren a shell started; on Windows
 * taskkill /T walks the tree.
 */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) {
    return;
  }
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on(
      'error',
      () => undefined,
    );
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is already gone
    child.kill('SIGKILL');
  }
}

function startInBackground(request: ProcessRequest): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      detached: true,
      windowsHide: true,
      windowsVerbatimArguments: request.windowsVerbatimArguments ?? false,
      stdio: 'ignore',
    });
    child.on('spawn', () => {
      child.unref();
      resolve({ exitCode: null, timedOut: false, cancelled: false, isDetached: true });
    });
    child.on('error', (err) =>
      resolve({ exitCode: null, timedOut: false, cancelled: false, spawnError: err.message }),
    );
  });
}

/** The real runner: child_process.spawn without a shell. */
export const spawnRunner: ProcessRunner = (request) =>
  new Promise((resolve) => {
    if (request.signal?.aborted) {
      resolve({ exitCode: null, timedOut: false, cancelled: true });
      return;
    }
    if (request.isBackground) {
      void startInBackground(request).then(resolve);
      return;
    }
    const child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      ...(request.env && { env: { ...process.env, ...request.env } }),
      detached: process.platform !== 'win32',
      windowsHide: true,
      windowsVerbatimArguments: request.windowsVerbatimArguments ?? false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let cancelled = false;
    let spawnError: string | undefined;
    let isSettled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, request.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      killTree(child);
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.setEncoding('utf8').on('data', (text: string) => request.onStdout(text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => request.onStderr(text));
    const settle = (exitCode: number | null) => {
      if (isSettled) {
        return;
      }
      isSettled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode, timedOut, cancelled, ...(spawnError ? { spawnError } : {}) });
    };
    child.on('error', (err) => {
      spawnError = err.message;
      // a failed spawn never emits 'close' on every Node version
      if (child.pid === undefined) {
        settle(null);
      }
    });
    child.on('close', (code) => settle(code));
  });
