import { describe, expect, it } from 'vitest';
import { CLAIM_BATCH } from './dispatcher';
import { createScheduler, SWEEP_EVERY_MS } from './scheduler';
import { manualClock, recordingLog } from '../../../../test/support/engine';

// The scheduler: passes on its timer and on a kick, one at a time; due jobs until a batch comes
// back short, the sweep at most every SWEEP_EVERY_MS.

function setup(dueJobs: number) {
  const clock = manualClock();
  const log = recordingLog();
  let due = dueJobs;
  const counters = { claims: 0, sweeps: 0 };
  let sweepFails = false;
  const scheduler = createScheduler({
    clock,
    log,
    intervalMs: 1000,
    dispatcher: {
      dispatchDue: () => {
        counters.claims += 1;
        const n = Math.min(due, CLAIM_BATCH);
        due -= n;
        return Promise.resolve(n);
      },
    },
    sweeper: {
      sweep: () => {
        counters.sweeps += 1;
        return sweepFails ? Promise.reject(new Error('database away')) : Promise.resolve();
      },
    },
  });
  return {
    clock,
    log,
    counters,
    scheduler,
    addDue: (n: number) => (due += n),
    failSweeps: () => (sweepFails = true),
  };
}

describe('the scheduler', () => {
  it('claims until a batch comes back short, then sweeps', async () => {
    const t = setup(3);
    await t.scheduler.tick();
    // two lanes: three full batches, then each lane's short one
    expect(t.counters.claims).toBe(5);
    expect(t.counters.sweeps).toBe(1);
  });

  it('sweeps at most every SWEEP_EVERY_MS, and passes on its timer once started', async () => {
    const t = setup(0);
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.counters.sweeps).toBe(1);
    await t.clock.advance(1000);
    expect(t.counters.claims).toBe(4);
    expect(t.counters.sweeps).toBe(1);
    await t.clock.advance(SWEEP_EVERY_MS - 1000);
    expect(t.counters.sweeps).toBe(2);
    await t.scheduler.stop();
    const claims = t.counters.claims;
    await t.clock.advance(10_000);
    t.scheduler.kick();
    expect(t.counters.claims).toBe(claims);
  });

  it('a tick during a pass makes that pass go round once more (both resolve with it)', async () => {
    const t = setup(0);
    const first = t.scheduler.tick();
    t.addDue(1);
    const second = t.scheduler.tick();
    await Promise.all([first, second]);
    // round one: two short claims; round two: one full and two short
    expect(t.counters.claims).toBe(5);
  });

  it('logs a failed pass and keeps going', async () => {
    const t = setup(0);
    t.failSweeps();
    await t.scheduler.tick();
    expect(t.log.lines).toEqual([{ level: 'error', message: 'deployment scheduler pass failed' }]);
    await t.clock.advance(SWEEP_EVERY_MS);
    await t.scheduler.tick();
    expect(t.counters.sweeps).toBe(2);
  });
});
