import { describe, expect, it } from 'vitest';
import type { JobStatus } from '@outpost/contract/live';
import type { JobRow, NewJob } from '../deployments.queries';
import type { DeviceRowUpdate } from './job-updates';
import { createSettler, SETTLE_DELAY_MS, SETTLE_RETRY_MS, settledStatus } from './settler';
import { deviceRow, fakeDb, job, manualClock, recordingLog } from '../../../../test/support/engine';

// The settler: a job's status and counters from its device rows, settled once per batch of
// changes, published after, retried when the database is away.

const counts = (c: Partial<Record<JobStatus, number>>): Record<JobStatus, number> => ({
  pending: 0,
  running: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  ...c,
});

describe('settledStatus', () => {
  it('follows the device rows: pending until one starts, running until all ended', () => {
    expect(settledStatus('pending', counts({}))).toBe('pending');
    expect(settledStatus('pending', counts({ pending: 2 }))).toBe('pending');
    expect(settledStatus('pending', counts({ pending: 1, running: 1 }))).toBe('running');
    expect(settledStatus('running', counts({ pending: 1, completed: 1 }))).toBe('running');
  });

  it('ends completed only when every row completed, failed otherwise; a cancelled job stays cancelled', () => {
    expect(settledStatus('running', counts({ completed: 3 }))).toBe('completed');
    expect(settledStatus('running', counts({ completed: 2, failed: 1 }))).toBe('failed');
    expect(settledStatus('running', counts({ completed: 2, cancelled: 1 }))).toBe('failed');
    expect(settledStatus('cancelled', counts({ running: 1 }))).toBe('cancelled');
  });
});

function setup(rows: Record<JobStatus, number>) {
  const clock = manualClock();
  const db = fakeDb();
  const log = recordingLog();
  const published: { jobId: number; device?: number }[] = [];
  const written: Partial<NewJob>[] = [];
  let current = job({ status: 'pending' });
  const settler = createSettler({
    db,
    clock,
    log,
    publishJob: (j: JobRow, dd?: DeviceRowUpdate) => {
      published.push({ jobId: j.id, ...(dd && { device: dd.id }) });
      return Promise.resolve();
    },
    queries: {
      lockJobById: (_tx, id) => Promise.resolve({ ...current, id }),
      deviceStatusCounts: () => Promise.resolve(rows),
      updateJob: (_tx, id, set) => {
        written.push(set);
        current = { ...current, ...set, id };
        return Promise.resolve(current);
      },
    },
  });
  return { clock, db, log, published, written, settler };
}

describe('the settler', () => {
  it('settles a changed job once after the delay, then publishes each changed row', async () => {
    const t = setup(counts({ running: 1, completed: 1 }));
    t.settler.markUnsettled(1, deviceRow({ id: 10, status: 'running' }));
    t.settler.markUnsettled(1, deviceRow({ id: 11, status: 'completed' }));
    t.settler.markUnsettled(1, deviceRow({ id: 10, status: 'running' }));
    expect(t.settler.isUnsettled(1)).toBe(true);
    await t.clock.advance(SETTLE_DELAY_MS - 1);
    expect(t.db.transactions).toBe(0);
    await t.clock.advance(1);
    expect(t.db.transactions).toBe(1);
    expect(t.written).toEqual([
      {
        status: 'running',
        totalDevices: 2,
        completedDevices: 1,
        failedDevices: 0,
        startedAt: new Date(t.clock.now()),
      },
    ]);
    expect(t.published).toEqual([
      { jobId: 1, device: 10 },
      { jobId: 1, device: 11 },
    ]);
    expect(t.settler.isUnsettled(1)).toBe(false);
  });

  it('publishes the job alone when no row came with it (the sweep), and marks its end', async () => {
    const t = setup(counts({ completed: 2 }));
    t.settler.markUnsettled(1);
    await t.clock.advance(SETTLE_DELAY_MS);
    expect(t.published).toEqual([{ jobId: 1 }]);
    expect(t.written[0]).toMatchObject({ status: 'completed', completedAt: new Date(t.clock.now()) });
  });

  it('retries after SETTLE_RETRY_MS when the database is away, keeping the changed rows', async () => {
    const t = setup(counts({ running: 1 }));
    t.db.failing = 1;
    t.settler.markUnsettled(1, deviceRow({ id: 10, status: 'running' }));
    await t.clock.advance(SETTLE_DELAY_MS);
    expect(t.published).toEqual([]);
    expect(t.log.lines).toEqual([{ level: 'warn', message: 'settling a deployment job failed; retrying' }]);
    await t.clock.advance(SETTLE_RETRY_MS - 1);
    expect(t.db.transactions).toBe(1);
    await t.clock.advance(1);
    expect(t.published).toEqual([{ jobId: 1, device: 10 }]);
  });

  it('schedules nothing once halted, and drain settles what waits at once', async () => {
    const t = setup(counts({ running: 1 }));
    t.settler.markUnsettled(1, deviceRow({ id: 10 }));
    t.settler.halt();
    t.settler.markUnsettled(2);
    await t.settler.drain();
    expect(t.db.transactions).toBe(2);
    expect(t.published).toEqual([{ jobId: 1, device: 10 }, { jobId: 2 }]);
    expect(t.clock.pending()).toBe(0);
  });
});
