import { execFile } from 'node:child_process';
import { isSea } from 'node:sea';
import type * as NodePtyModule from '@lydell/node-pty';
import { requireSeaNodePty } from './pty-sea-package';
import type { PtyProcess } from './terminal-session';
import type { ShellCommand } from './terminal-shell';

// The pseudo-terminal (docs/agent.md "Remote access"): @lydell/node-pty, a real pty on Linux and
// macOS and a ConPTY on Windows, loaded at the first session (most agents never open one). The
// single executable loads node-pty from the copy it embeds, extracted to its state folder
// (pty-sea-package.ts); a build without one answers with PTY_UNAVAILABLE
// (docs/decisions/2026-11-27-remote-terminal.md).

export type PtySpawner = (command: ShellCommand, size: { cols: number; rows: number }) => PtyProcess;

type NodePty = typeof NodePtyModule;

let loaded: Promise<NodePty | null> | null = null;

type Warn = { warn(message: string, meta?: Record<string, unknown>): void };

/**
 * node-pty, or null where it cannot be loaded. The single executable extracts its embedded copy
 * into `stateDir` (pty-sea-package.ts); from source it is the installed package. A failure is
 * tried again at the next session (a state folder that was not writable may be by then).
 */
export function loadNodePty(stateDir?: string, log?: Warn): Promise<NodePty | null> {
  loaded ??= (
    isSea()
      ? Promise.resolve().then(() => (stateDir ? requireSeaNodePty<NodePty>(stateDir) : null))
      : import('@lydell/node-pty').then((m) => (m as { default?: NodePty }).default ?? m)
  ).catch((err: unknown) => {
    log?.warn('the terminal could not be loaded', {
      error: err instanceof Error ? err.message : String(err),
    });
    loaded = null;
    return null;
  });
  return loaded;
}

/**
 * A spawner on node-pty, or null when it is not available. `stateDir`: where the single
 * executable extracts node-pty (pty-sea-package.ts).
 */
export async function nodePtySpawner(stateDir?: string, log?: Warn): Promise<PtySpawner | null> {
  const pty = await loadNodePty(stateDir, log);
  if (!pty) {
    return null;
  }
  return (command, size) => {
    const windows = process.platform === 'win32';
    const p = pty.spawn(command.file, command.args, {
      name: 'xterm-256color',
      cols: size.cols,
      rows: size.rows,
      cwd: command.cwd,
      env: command.env,
      ...(windows ? { useConpty: true } : { encoding: null }),
    });
    return {
      pid: p.pid,
      onData: (listener) => {
        p.onData(listener as (data: string) => void);
      },
      onExit: (listener) => {
        p.onExit(listener);
      },
      write: (data) => p.write(data),
      resize: (cols, rows) => p.resize(cols, rows),
      pause: () => p.pause(),
      resume: () => p.resume(),
      kill: () => killTree(p.pid, () => p.kill()),
    };
  };
}

/**
 * Ends the shell and what it started: on Windows taskkill /T; elsewhere the shell leads its own
 * process group (the pty made it a session leader), which is sent SIGHUP, then SIGKILL.
 */
export function killTree(pid: number, fallback: () => void, platform: NodeJS.Platform = process.platform) {
  if (platform === 'win32') {
    execFile('taskkill.exe', ['/PID', String(pid), '/T', '/F'], () => fallback());
    return;
  }
  try {
    process.kill(-pid, 'SIGHUP');
  } catch {
    fallback();
    return;
  }
  setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }, 2000).unref();
}
