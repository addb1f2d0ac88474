import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock';
import { CLAIM_BATCH } from './dispatcher';
import type { Dispatcher } from './dispatcher';
import type { Sweeper } from './sweeper';

// The scheduler: a pass every interval (and on a kick after a job was created) dispatches the
// due jobs, then, every SWEEP_EVERY_MS, runs the sweep. One pass at a time: a tick during a pass
// makes that pass go round once more.

/**
 * Claims run this many at a time (SKIP LOCKED gives each its own job): one job's dispatch is a
 * few statements that wait on the database, and ten jobs one after another were the last
 * commands' delivery time at 10,000 devices (bench/RESULTS.md, deploy).
 */
const CLAIM_LANES = 2;
export const SWEEP_EVERY_MS = 5000;

export type Scheduler = {
  /** look for due work now (after a job was created), without waiting for the timer */
  kick(): void;
  /** one scheduler pass: dispatch due jobs, then the sweep; resolves when done */
  tick(): Promise<void>;
  start(): void;
  /** no pass starts from now on; resolves when the running one ended */
  stop(): Promise<void>;
};

export function createScheduler(deps: {
  dispatcher: Dispatcher;
  sweeper: Sweeper;
  log: FastifyBaseLogger;
  intervalMs: number;
  clock: Clock;
  /** rollouts (rollout.ts): ended soaks every pass, the running gates with the sweep */
  rollouts?: { pass(): Promise<void>; sweep(): Promise<void> };
  /** dispatches rows held for a maintenance window that opened (windows.ts) */
  releaseWindows?: () => Promise<number>;
}): Scheduler {
  const { dispatcher, sweeper, log, clock, rollouts } = deps;
  let cancelTimer: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let lastSweep = 0;
  let isStopped = false;

  async function pass() {
    do {
      again = false;
      await Promise.all(
        Array.from({ length: CLAIM_LANES }, async () => {
          while ((await dispatcher.dispatchDue()) === CLAIM_BATCH) {
            // a full batch: there may be more due jobs
          }
        }),
      );
      await rollouts?.pass();
      await deps.releaseWindows?.();
      if (clock.now() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = clock.now();
        await sweeper.sweep();
        await rollouts?.sweep();
      }
    } while (again && !isStopped);
  }

  function tick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        await pass();
      } catch (err) {
        log.error({ err }, 'deployment scheduler pass failed');
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    kick() {
      if (!isStopped) {
        void tick();
      }
    },
    tick,
    start() {
      cancelTimer = clock.every(deps.intervalMs, () => void tick());
      void tick();
    },
    async stop() {
      isStopped = true;
      cancelTimer?.();
      await running;
    },
  };
}
