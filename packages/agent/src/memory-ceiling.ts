import type { Logger } from './connection';

// The memory ceiling the agent keeps to on its own (docs/agent.md "Footprint"). Its resident
// memory is read every interval (process.memoryUsage.rss(): one small read, no allocation to
// speak of); when it stays above the limit for a while, the agent reports it to the server as a
// fault (the device shows the message), stops as it does on SIGTERM and exits with
// MEMORY_LIMIT_EXIT_CODE, and the service manager starts it afresh (systemd Restart=always, the
// Windows service's failure actions, launchd KeepAlive: service/definitions.ts).

/** The agent exits with this when its memory stayed above its limit; the service manager restarts it. */
export const MEMORY_LIMIT_EXIT_CODE = 77;
export const DEFAULT_MEMORY_LIMIT_MB = 200;
/** How often the resident memory is read. */
export const MEMORY_CHECK_INTERVAL_MS = 30_000;
/** How long it must stay above the limit: a short peak (a large inventory being sent) is not enough. */
export const MEMORY_SUSTAIN_MS = 120_000;
/** How long the fault is given to reach the server before the agent stops. */
const REPORT_GRACE_MS = 1000;
const MB = 1024 * 1024;

export type MemoryCeilingOptions = {
  /** the limit in MB of resident memory; 0 turns the ceiling off */
  limitMb: number;
  /** resident memory in bytes (process.memoryUsage.rss when absent) */
  readRss?: () => number;
  now?: () => number;
  sustainMs?: number;
};

export type MemoryVerdict =
  | { state: 'ok'; rssMb: number }
  | { state: 'over'; rssMb: number; forMs: number }
  | { state: 'exceeded'; rssMb: number; forMs: number };

/** The limit: OUTPOST_AGENT_MEMORY_LIMIT_MB when set to a whole number, else the configuration's. */
export function memoryLimitMb(configured: number, env: NodeJS.ProcessEnv = process.env): number {
  const given = env.OUTPOST_AGENT_MEMORY_LIMIT_MB?.trim();
  return given && /^\d+$/.test(given) ? Number(given) : configured;
}

/** Checks against the limit, remembering since when the memory has been above it. */
export function createMemoryCeiling(options: MemoryCeilingOptions) {
  const readRss = options.readRss ?? (() => process.memoryUsage.rss());
  const now = options.now ?? Date.now;
  const sustainMs = options.sustainMs ?? MEMORY_SUSTAIN_MS;
  let overSince: number | null = null;
  return {
    check(): MemoryVerdict {
      const rssMb = readRss() / MB;
      if (options.limitMb <= 0 || rssMb <= options.limitMb) {
        overSince = null;
        return { state: 'ok', rssMb };
      }
      const at = now();
      overSince ??= at;
      const forMs = at - overSince;
      return { state: forMs >= sustainMs ? 'exceeded' : 'over', rssMb, forMs };
    },
  };
}

/** What the device shows. */
export function memoryLimitMessage(rssMb: number, limitMb: number, forMs: number): string {
  return (
    `The agent used ${Math.round(rssMb)} MB of memory, above its limit of ${limitMb} MB, ` +
    `for ${Math.round(forMs / 1000)} s; it restarts (exit code ${MEMORY_LIMIT_EXIT_CODE}).`
  );
}

export type MemoryWatchOptions = MemoryCeilingOptions & {
  intervalMs?: number;
  log?: Logger;
  /** sends the report to the server (the agent's fault message) */
  report: (message: string) => void;
  /** stops the agent (as on SIGTERM) */
  stop: () => Promise<void>;
  exit: (code: number) => void;
  /** how long the report is given before the agent stops (tests shorten it) */
  graceMs?: number;
};

/** Checks the memory every interval; past the limit for long enough: report, stop, exit. */
export function watchMemory(options: MemoryWatchOptions): { stop(): void } {
  if (options.limitMb <= 0) {
    return { stop: () => undefined };
  }
  const ceiling = createMemoryCeiling(options);
  const timer = setInterval(() => {
    const verdict = ceiling.check();
    if (verdict.state !== 'exceeded') {
      return;
    }
    clearInterval(timer);
    const message = memoryLimitMessage(verdict.rssMb, options.limitMb, verdict.forMs);
    options.log?.error(message);
    options.report(message);
    setTimeout(() => {
      void options
        .stop()
        .catch((err: unknown) => options.log?.error('stop failed', { err: String(err) }))
        .finally(() => options.exit(MEMORY_LIMIT_EXIT_CODE));
    }, options.graceMs ?? REPORT_GRACE_MS);
  }, options.intervalMs ?? MEMORY_CHECK_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
