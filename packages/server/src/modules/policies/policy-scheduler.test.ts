import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../deployments/engine/clock';
import { createPolicyScheduler } from './policy-scheduler';

// The policies' timer with a manual clock: passes at the clock's time, none after stop.

function manualClock(start: number) {
  let now = start;
  const timers: (() => void)[] = [];
  const clock: Clock = {
    now: () => now,
    after: () => () => undefined,
    every(_ms, run) {
      timers.push(run);
      return () => timers.splice(timers.indexOf(run), 1);
    },
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const t of [...timers]) {
        t();
      }
    },
    timers,
  };
}

const log = { error: () => undefined } as unknown as FastifyBaseLogger;

describe('policy scheduler', () => {
  it('runs a pass at start and on each interval, at the clock time, and none once stopped', async () => {
    const m = manualClock(1_000);
    const seen: number[] = [];
    const scheduler = createPolicyScheduler({
      runner: { pass: (now) => Promise.resolve(seen.push(now)) },
      clock: m.clock,
      intervalMs: 30_000,
      log,
    });
    scheduler.start();
    await scheduler.tick();
    m.advance(30_000);
    await scheduler.tick();
    expect(seen.slice(0, 2)).toEqual([1_000, 31_000]);
    await scheduler.stop();
    expect(m.timers).toHaveLength(0);
    const before = seen.length;
    await scheduler.tick();
    expect(seen.length).toBe(before);
  });

  it('keeps running after a failed pass', async () => {
    const m = manualClock(0);
    let calls = 0;
    const scheduler = createPolicyScheduler({
      runner: {
        pass: () => {
          calls += 1;
          return calls === 1 ? Promise.reject(new Error('database away')) : Promise.resolve(0);
        },
      },
      clock: m.clock,
      intervalMs: 10,
      log,
    });
    await scheduler.tick();
    await scheduler.tick();
    expect(calls).toBe(2);
  });
});
