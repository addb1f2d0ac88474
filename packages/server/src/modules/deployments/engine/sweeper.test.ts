import { describe, expect, it } from 'vitest';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { DeviceDeploymentRow, JobRow } from '../deployments.queries';
import type { ResultInput } from './agent-results';
import type { DeviceRowUpdate } from './job-updates';
import { createSweeper, overdueReason, RECONCILE_AFTER_MS, SWEEP_BATCH } from './sweeper';
import { deviceRow, fakeDb, job, manualClock } from '../../../../test/support/engine';

// The sweep: overdue rows fail with the reason the user reads, their commands end with them;
// rows whose command ended are reconciled from it; jobs whose counters disagree are settled.

const COMMAND = '00000000-0000-4000-8000-00000000c0de';

function setup(opts: {
  overdue?: DeviceDeploymentRow[];
  stale?: { commandId: string; deviceId: number }[];
  commands?: Record<
    string,
    { status: string; result?: Record<string, unknown> | null; error?: string | null }
  >;
  unsettledJobs?: number[];
  waiting?: number[];
}) {
  const clock = manualClock();
  const ended: DeviceDeploymentRow[] = [];
  const finished: { deviceId: number; commandId: string; error: string | null }[] = [];
  const published: { job: number; device?: number }[] = [];
  const applied: ResultInput[] = [];
  const marked: number[] = [];
  const asked: { ageMs: number; limit: number }[] = [];
  const sweeper = createSweeper({
    db: fakeDb(),
    clock,
    expiryHours: 24,
    commandQueue: {
      finishCommand: (_tx, deviceId, commandId, outcome) => {
        finished.push({ deviceId, commandId, error: outcome.error });
        return Promise.resolve(true);
      },
      findCommand: (id) => {
        const c = opts.commands?.[id];
        return Promise.resolve(c ? ({ id, ...c } as never) : null);
      },
    },
    settler: {
      settleJob: (_tx, jobId) => Promise.resolve({ before: job({ id: jobId }), after: job({ id: jobId }) }),
      markUnsettled: (jobId) => marked.push(jobId),
      isUnsettled: (jobId) => (opts.waiting ?? []).includes(jobId),
    },
    publishJob: (j: JobRow, dd?: DeviceRowUpdate) => {
      published.push({ job: j.id, ...(dd && { device: dd.id }) });
      return Promise.resolve();
    },
    applyResult: (r) => {
      applied.push(r);
      return Promise.resolve();
    },
    queries: {
      claimOverdueDeviceDeployments: (_tx, limit) => Promise.resolve((opts.overdue ?? []).slice(0, limit)),
      endDeviceDeployments: (_tx, rows) => {
        ended.push(...rows);
        return Promise.resolve();
      },
      staleCommandRows: (_db, ageMs, limit) => {
        asked.push({ ageMs, limit });
        return Promise.resolve(opts.stale ?? []);
      },
      unsettledJobs: () => Promise.resolve(opts.unsettledJobs ?? []),
    },
  });
  return { clock, sweeper, ended, finished, published, applied, marked, asked };
}

describe('overdueReason', () => {
  it('names a removed device, one never online, one that went away', () => {
    expect(overdueReason({ deviceId: null, status: 'running' }, 24)).toBe(messages.deviceRemoved);
    expect(overdueReason({ deviceId: 1, status: 'pending' }, 24)).toBe(messages.deviceNeverOnline(24));
    expect(overdueReason({ deviceId: 1, status: 'running' }, 24)).toBe(messages.deviceWentAway(24));
  });
});

describe('the sweep', () => {
  it('fails overdue rows, ends their commands, and publishes each with its settled job', async () => {
    const t = setup({
      overdue: [
        deviceRow({ id: 10, jobId: 1, status: 'pending', commandId: COMMAND }),
        deviceRow({ id: 11, jobId: 2, deviceId: null, status: 'running', commandId: COMMAND }),
      ],
    });
    await t.sweeper.sweep();
    expect(t.ended.map((r) => [r.id, r.status, r.errorMessage, r.completedAt])).toEqual([
      [10, 'failed', messages.deviceNeverOnline(24), new Date(t.clock.now())],
      [11, 'failed', messages.deviceRemoved, new Date(t.clock.now())],
    ]);
    // a removed device has no command to end
    expect(t.finished).toEqual([
      { deviceId: 100, commandId: COMMAND, error: messages.deviceNeverOnline(24) },
    ]);
    expect(t.published).toEqual([
      { job: 1, device: 10 },
      { job: 2, device: 11 },
    ]);
  });

  it('applies the ended commands of stale rows as results, leaving unfinished ones', async () => {
    const t = setup({
      stale: [
        { commandId: 'a', deviceId: 1 },
        { commandId: 'b', deviceId: 2 },
        { commandId: 'gone', deviceId: 3 },
      ],
      commands: {
        a: { status: 'failed', result: null, error: 'The command expired before the device ran it' },
        b: { status: 'sent' },
      },
    });
    await t.sweeper.sweep();
    expect(t.asked).toEqual([{ ageMs: RECONCILE_AFTER_MS, limit: SWEEP_BATCH }]);
    expect(t.applied).toEqual([
      {
        deviceId: 1,
        commandId: 'a',
        status: 'failed',
        result: null,
        error: 'The command expired before the device ran it',
      },
    ]);
  });

  it('marks for settling the jobs whose counters disagree, unless they wait already', async () => {
    const t = setup({ unsettledJobs: [1, 2, 3], waiting: [2] });
    await t.sweeper.sweep();
    expect(t.marked).toEqual([1, 3]);
  });
});
