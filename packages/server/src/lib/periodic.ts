import type { FastifyBaseLogger } from 'fastify';

// A pass that runs every interval at a clock's time, one at a time (a tick during a pass waits
// for it): the policies' timer and the notification outbox. app.ts starts each once listening and
// stops it before the database closes.

export type Periodic = {
  /** one pass now; resolves when done */
  tick(): Promise<void>;
  start(): void;
  /** no pass starts from now on; resolves when the running one ended */
  stop(): Promise<void>;
};

export type PeriodicClock = { now(): number; every(ms: number, run: () => void): () => void };

export function createPeriodic(deps: {
  /** in the log line of a failed pass */
  name: string;
  pass: (now: number) => Promise<unknown>;
  clock: PeriodicClock;
  intervalMs: number;
  log: FastifyBaseLogger;
}): Periodic {
  const { clock, log } = deps;
  let cancelTimer: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let isStopped = false;

  function tick(): Promise<void> {
    if (running) {
      return running;
    }
    if (isStopped) {
      return Promise.resolve();
    }
    running = (async () => {
      try {
        await deps.pass(clock.now());
      } catch (err) {
        log.error({ err }, `${deps.name} pass failed`);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    tick,
    start() {
      isStopped = false;
      cancelTimer = clock.every(deps.intervalMs, () => void tick());
      void tick();
    },
    async stop() {
      isStopped = true;
      cancelTimer?.();
      cancelTimer = null;
      await running;
    },
  };
}
