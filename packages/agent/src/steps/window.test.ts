import { describe, expect, it } from 'vitest';
import { STEP_TYPES } from '@outpost/contract/step-catalog';
import type { StepType } from '@outpost/contract/step-catalog';
import { command, reports, step } from '../../test/support/steps';
import type { StepHandler } from './context';
import { runStepLoop } from './deployment-loop';
import { deploymentError } from '../deployment/runner';

// docs/product/rollouts.md#maintenance-windows: the real step loop with handlers that run nothing
// and a clock each step moves on by its own duration.

function fakeClock(start: string) {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

/** Every step type's handler records its command's length, takes the next of `minutes` on the fake clock and completes. */
function handlers(clock: ReturnType<typeof fakeClock>, ran: number[], minutes: number[] = []) {
  const handler: StepHandler = (details) => {
    ran.push(String(details.command).length);
    clock.advance((minutes.shift() ?? 1) * 60_000);
    return Promise.resolve({ status: 'completed', exitCode: 0, rebootRequired: false });
  };
  return Object.fromEntries(STEP_TYPES.map((t) => [t, handler])) as Record<StepType, StepHandler>;
}

const cmd = (order: number, timeoutMinutes: number) =>
  step(order, 'CMD', { command: `echo ${'x'.repeat(order)}` }, { timeoutSeconds: timeoutMinutes * 60 });

describe('maintenance windows on the device', () => {
  it('does not start a step whose timeout would pass the window end, and says where it stopped', async () => {
    const clock = fakeClock('2026-11-27T22:00:00Z');
    const ran: number[] = [];
    const r = reports();
    const notes: string[] = [];
    const result = await runStepLoop(
      {
        ...command([cmd(1, 30), cmd(2, 30), cmd(3, 31)]),
        windowEndsAt: '2026-11-27T23:00:00Z',
      },
      {
        report: r.report,
        fetchFile: () => Promise.reject(new Error('no files')),
        download: () => Promise.reject(new Error('no downloads')),
        handlers: handlers(clock, ran, [20, 10]),
        usesDisk: false,
        platform: 'linux',
        now: clock.now,
        onWindowClosed: (note) => notes.push(note),
      },
    );
    // step 1 22:00–22:20, step 2 22:20–22:30; step 3 could run until 23:01, past the end: not started
    expect(result.steps.map((s) => [s.stepOrder, s.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
    ]);
    expect(result).toMatchObject({ status: 'cancelled', waitingForWindowAtStep: 3 });
    expect(r.list.some((p) => p.stepOrder === 3)).toBe(false);
    expect(notes[0]).toContain('before step 3');
    expect(deploymentError(result)).toBe('Window closed before step 3');
  });

  it('runs every step when each fits, and stops before the first when none does', async () => {
    const clock = fakeClock('2026-11-27T22:00:00Z');
    const deps = {
      report: () => undefined,
      fetchFile: () => Promise.reject(new Error('no files')),
      download: () => Promise.reject(new Error('no downloads')),
      handlers: handlers(clock, []),
      usesDisk: false,
      platform: 'linux' as const,
      now: clock.now,
    };
    const fits = await runStepLoop(
      { ...command([cmd(1, 10), cmd(2, 10)]), windowEndsAt: '2026-11-27T23:00:00Z' },
      deps,
    );
    expect(fits).toMatchObject({ status: 'completed' });
    expect(fits.waitingForWindowAtStep).toBeUndefined();
    const none = await runStepLoop({ ...command([cmd(1, 120)]), windowEndsAt: '2026-11-27T23:00:00Z' }, deps);
    expect(none).toMatchObject({ status: 'cancelled', waitingForWindowAtStep: 1, steps: [] });
  });

  it('starts a resumed run at startAtStep: the steps before it are not run again', async () => {
    const clock = fakeClock('2026-12-01T22:00:00Z');
    const ran: number[] = [];
    const r = reports();
    const result = await runStepLoop(
      { ...command([cmd(1, 5), cmd(2, 5), cmd(3, 5)]), startAtStep: 3, windowEndsAt: '2026-12-01T23:00:00Z' },
      {
        report: r.report,
        fetchFile: () => Promise.reject(new Error('no files')),
        download: () => Promise.reject(new Error('no downloads')),
        handlers: handlers(clock, ran),
        usesDisk: false,
        platform: 'linux',
        now: clock.now,
      },
    );
    expect(result.status).toBe('completed');
    expect(result.steps.map((s) => s.stepOrder)).toEqual([3]);
    // the handler saw only step 3's command ("echo xxx")
    expect(ran).toEqual(['echo xxx'.length]);
    expect(new Set(r.list.map((p) => p.stepOrder))).toEqual(new Set([3]));
  });

  it('runs without a window as before', async () => {
    const clock = fakeClock('2026-12-01T22:00:00Z');
    const result = await runStepLoop(command([cmd(1, 3600)]), {
      report: () => undefined,
      fetchFile: () => Promise.reject(new Error('no files')),
      download: () => Promise.reject(new Error('no downloads')),
      handlers: handlers(clock, []),
      usesDisk: false,
      platform: 'linux',
      now: clock.now,
    });
    expect(result.status).toBe('completed');
  });
});
