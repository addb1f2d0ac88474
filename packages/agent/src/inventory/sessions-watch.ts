import fs from 'node:fs';
import type { UserSession } from '@outpost/contract/agent-protocol';

// The user sessions, polled cheaply (docs/agent.md "Footprint"). Listing them runs programs
// (Linux: a shell with `who` and `w`, which reads every process; macOS the same; Windows
// PowerShell), and the agent polls every 15 s. On Linux and macOS a login or logout rewrites the
// utmp file, so the poll looks at its modification time and size and lists the sessions only when
// they changed, or once every REFRESH_MS in any case. Windows has no such file: the poll lists
// them every time, at the longer WINDOWS_POLL_MS (agent.ts takes the interval from here).

/** Where a login or logout is written (utmp on Linux, utmpx on macOS). */
export function utmpPath(platform: NodeJS.Platform = process.platform): string | null {
  return platform === 'linux' ? '/var/run/utmp' : platform === 'darwin' ? '/var/run/utmpx' : null;
}

/** Sessions are listed at least this often even when the utmp file looks unchanged. */
export const REFRESH_MS = 10 * 60_000;
/** The session poll of the agent: every 15 s, on Windows (no utmp to look at) every minute. */
export const SESSION_POLL_MS = 15_000;
export const WINDOWS_POLL_MS = 60_000;

export function sessionPollMs(platform: NodeJS.Platform = process.platform): number {
  return platform === 'win32' ? WINDOWS_POLL_MS : SESSION_POLL_MS;
}

export type SessionsWatchOptions = {
  list: () => Promise<UserSession[]>;
  /** the utmp file, null when there is none to watch */
  file: string | null;
  /** modification time and size of the file, null when there is none */
  stat?: (file: string) => { mtimeMs: number; size: number } | null;
  now?: () => number;
  refreshMs?: number;
};

function statOf(file: string) {
  try {
    const s = fs.statSync(file);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return null;
  }
}

export function createSessionsWatch(options: SessionsWatchOptions) {
  const stat = options.stat ?? statOf;
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? REFRESH_MS;
  let last: { key: string; at: number; sessions: UserSession[] } | null = null;
  // no file to watch (Windows): no key, the sessions are listed every time; a file that is
  // missing is a state too (`who` and `w` read it: no file, no sessions until it appears)
  const keyOf = () => {
    if (!options.file) {
      return null;
    }
    const s = stat(options.file);
    return s ? `${s.mtimeMs}:${s.size}` : 'missing';
  };
  /** Lists the sessions now, and remembers them with the file's state. */
  async function fresh(): Promise<UserSession[]> {
    const key = keyOf();
    const at = now();
    const sessions = await options.list();
    last = key === null ? null : { key, at, sessions };
    return sessions;
  }
  return {
    fresh,
    /** The sessions: those listed last while the utmp file is unchanged, else listed again. */
    async poll(): Promise<UserSession[]> {
      if (last && keyOf() === last.key && now() - last.at < refreshMs) {
        return last.sessions;
      }
      return fresh();
    },
  };
}
