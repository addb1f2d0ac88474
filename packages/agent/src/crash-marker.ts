import fs from 'node:fs';
import path from 'node:path';

// Crash detection (docs/agent.md "Checks and metrics"): a marker in the agent's state directory
// is written when it starts and removed when it stops cleanly (SIGTERM, the service manager, an
// update or the memory ceiling's restart). Found at a start, the agent did not stop cleanly: its
// hello says so once (`restartedAfterCrash`) and an agent_crash check fails for an hour.

export const CRASH_MARKER_FILE = 'running.json';

export type CrashReport = { at: string; reason: string | null };

export type CrashMarker = {
  /** the previous run ended without a clean stop (null when it stopped cleanly, or on a first start) */
  previousCrash: CrashReport | null;
  /** a clean stop: the marker goes */
  clear(): void;
};

/** Reads what the previous run left, then writes this run's marker. */
export function openCrashMarker(
  stateDir: string,
  options: { now?: () => Date; pid?: number } = {},
): CrashMarker {
  const now = options.now ?? (() => new Date());
  const file = path.join(stateDir, CRASH_MARKER_FILE);
  let previousCrash: CrashReport | null = null;
  try {
    const raw = fs.readFileSync(file, 'utf8');
    const previous = parsePrevious(raw);
    previousCrash = {
      at: now().toISOString(),
      reason: previous
        ? `The agent started at ${previous.startedAt} (process ${previous.pid}) did not stop cleanly`
        : 'The agent did not stop cleanly',
    };
  } catch {
    // no marker: a first start or a clean stop
  }
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const body = JSON.stringify({ startedAt: now().toISOString(), pid: options.pid ?? process.pid });
  fs.writeFileSync(file, body, { mode: 0o600 });
  return {
    previousCrash,
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
}

function parsePrevious(raw: string): { startedAt: string; pid: number } | null {
  try {
    const v = JSON.parse(raw) as { startedAt?: unknown; pid?: unknown };
    return typeof v.startedAt === 'string' && typeof v.pid === 'number'
      ? { startedAt: v.startedAt, pid: v.pid }
      : null;
  } catch {
    return null;
  }
}
