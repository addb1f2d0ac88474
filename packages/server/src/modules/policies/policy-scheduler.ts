import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../deployments/engine/clock';
import type { PolicyRunner } from './policy-runner';

// The policies' timer, one per instance (docs/product/device-sets.md#automation-policies): a pass
// every interval at the clock's time; one pass at a time (a tick during a pass waits for it).
// app.ts starts it once listening and stops it before the database closes.

export type PolicyScheduler = {
  /** one pass now; resolves when done */
  tick(): Promise<void>;
  start(): void;
  /** no pass starts from now on; resolves when the running one ended */
  stop(): Promise<void>;
};

export function createPolicyScheduler(deps: {
  runner: PolicyRunner;
  clock: Clock;
  intervalMs: number;
  log: FastifyBaseLogger;
}): PolicyScheduler {
  const { runner, clock, log } = deps;
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
        await runner.pass(clock.now());
      } catch (err) {
        log.error({ err }, 'policy scheduler pass failed');
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
