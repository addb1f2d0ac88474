import { describe, expect, it } from 'vitest';
import { createRollouts } from './rollout';
import type { RolloutQueries } from './rollout';
import type { HeldRow, WaveRow } from './rollout.queries';
import type { WaveCounts } from './rollout-rules';
import { fakeDb, job, manualClock, recordingLog } from '../../../../test/support/engine';

// The rollout part with a manual clock and queries over an in-memory job (docs/product/rollouts.md#gates):
// a met gate soaks, the pass starts the next wave once the soak ended, failures halt and hold.

function wave(index: number, over: Partial<WaveRow> = {}): WaveRow {
  return {
    jobId: 1,
    waveIndex: index,
    name: `Wave ${index + 1}`,
    groupId: null,
    percent: null,
    minFinishedPercent: 90,
    minSuccessPercent: 95,
    soakMinutes: 10,
    totalDevices: 10,
    startedAt: null,
    gateMetAt: null,
    soakUntil: null,
    passedAt: null,
    haltedAt: null,
    gateSkippedReason: null,
    gateSkippedBy: null,
    gateSkippedByName: null,
    resumedFailedDevices: 0,
    ...over,
  };
}

const counts = (c: Partial<WaveCounts>): WaveCounts => ({
  total: 10,
  pending: 0,
  running: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  ...c,
});

function setup() {
  const clock = manualClock();
  const state = {
    job: job({ id: 1, status: 'running', rolloutState: 'running', currentWave: 0 }),
    waves: [wave(0), wave(1), wave(2)],
    counts: [counts({ running: 10 }), counts({ pending: 10 }), counts({ pending: 10 })],
    released: [] as number[],
    held: [] as number[],
    withdrawn: [] as string[],
    dispatched: [] as number[],
    published: [] as (string | null)[],
  };
  const row = (id: number): HeldRow => ({
    id,
    deviceId: id,
    deviceGuid: null,
    siteId: null,
    status: 'pending',
    errorMessage: null,
    hold: null,
  });
  const queries: RolloutQueries = {
    lockRolloutJob: () => Promise.resolve(state.job),
    findWave: (_db, _job, i) => Promise.resolve(state.waves[i] ?? null),
    listWaves: () => Promise.resolve(state.waves),
    oneWaveCounts: (_db, _job, i) => Promise.resolve(state.counts[i]!),
    updateWave: (_tx, _job, i, set) => {
      state.waves[i] = { ...state.waves[i]!, ...set };
      return Promise.resolve();
    },
    claimNextWave: (_tx, _job, from) => {
      if (state.job.currentWave !== from || state.job.rolloutState !== 'running') {
        return Promise.resolve(null);
      }
      state.job = { ...state.job, currentWave: from + 1 };
      return Promise.resolve(state.job);
    },
    setRolloutState: (_tx, _job, set) => {
      state.job = { ...state.job, ...set };
      return Promise.resolve(state.job);
    },
    untakenRows: (_tx, _job, i) =>
      Promise.resolve([
        { id: i * 100 + 1, deviceId: 1, commandId: null },
        { id: i * 100 + 2, deviceId: 2, commandId: 'queued' },
      ]),
    holdRows: (_tx, ids, hold) => {
      state.held.push(...ids);
      return Promise.resolve(ids.map((id) => ({ ...row(id), hold })));
    },
    releaseRows: (_tx, _job, i) => {
      const ids = [i * 100 + 1, i * 100 + 2];
      state.released.push(...ids);
      return Promise.resolve(ids.map(row));
    },
    queueRows: (_tx, _job, rows) => Promise.resolve(rows.flatMap((r) => (r.deviceId ? [r.deviceId] : []))),
    endedSoaks: (_db, now) =>
      Promise.resolve(
        state.waves
          .filter((w) => !w.passedAt && w.soakUntil && w.soakUntil <= now)
          .map((w) => ({ jobId: 1, waveIndex: w.waveIndex })),
      ),
    runningRollouts: () => Promise.resolve(state.job.rolloutState === 'running' ? [1] : []),
    jobSiteIds: () => Promise.resolve([]),
    writeAudit: () => Promise.resolve(),
  };
  const rollouts = createRollouts({
    db: fakeDb(),
    commandQueue: {
      queueCommands: () => Promise.resolve([]),
      dispatch: (ids) => {
        state.dispatched.push(...ids);
        return Promise.resolve();
      },
      withdrawCommands: (_tx, ids) => {
        state.withdrawn.push(...ids);
        return Promise.resolve([...ids]);
      },
    },
    publishJob: (j) => {
      state.published.push(j.rolloutState);
      return Promise.resolve();
    },
    offlineExpiryMs: 60_000,
    clock,
    log: recordingLog(),
    queries,
  });
  return { clock, state, rollouts };
}

describe('rollout gates with a manual clock', () => {
  it('a met gate soaks; the next wave starts when the soak ended, once', async () => {
    const { clock, state, rollouts } = setup();
    await rollouts.evaluate(1);
    expect(state.waves[0]!.gateMetAt).toBeNull();

    state.counts[0] = counts({ completed: 10 });
    await rollouts.evaluate(1);
    expect(state.waves[0]!.gateMetAt?.getTime()).toBe(clock.now());
    expect(state.waves[0]!.soakUntil?.getTime()).toBe(clock.now() + 10 * 60_000);

    await clock.advance(9 * 60_000);
    await rollouts.pass();
    expect(state.job.currentWave).toBe(0);

    await clock.advance(60_000);
    await rollouts.pass();
    await rollouts.pass();
    expect(state.job.currentWave).toBe(1);
    expect(state.waves[0]!.passedAt).not.toBeNull();
    expect(state.waves[1]!.startedAt?.getTime()).toBe(clock.now());
    expect(state.released).toEqual([101, 102]);
    expect(state.dispatched).toEqual([101, 102]);
  });

  it('the last wave passed completes the rollout', async () => {
    const { state, rollouts } = setup();
    state.job = { ...state.job, currentWave: 2 };
    state.waves[2] = wave(2, { soakMinutes: 0 });
    state.counts[2] = counts({ completed: 10 });
    await rollouts.evaluate(1);
    expect(state.job.rolloutState).toBe('completed');
    expect(state.waves[2].passedAt).not.toBeNull();
  });

  it('a paused rollout’s soak does not start the next wave', async () => {
    const { clock, state, rollouts } = setup();
    state.counts[0] = counts({ completed: 10 });
    await rollouts.evaluate(1);
    state.job = { ...state.job, rolloutState: 'paused' };
    await clock.advance(11 * 60_000);
    await rollouts.pass();
    expect(state.job.currentWave).toBe(0);
    expect(state.waves[0]!.soakUntil).toBeNull();
  });

  it('failures above the threshold during the soak halt before the next wave', async () => {
    const { clock, state, rollouts } = setup();
    state.counts[0] = counts({ completed: 9, running: 1 });
    state.waves[0] = wave(0, { minSuccessPercent: 90 });
    await rollouts.evaluate(1);
    expect(state.waves[0].soakUntil).not.toBeNull();
    state.counts[0] = counts({ completed: 8, failed: 2 });
    await rollouts.evaluate(1);
    await clock.advance(11 * 60_000);
    await rollouts.pass();
    expect(state.job.rolloutState).toBe('halted');
    expect(state.job.currentWave).toBe(0);
    expect(state.job.rolloutStateReason).toBe(
      'Wave 1 halted: 2 of 10 devices failed (20 %), above the 10 % allowed',
    );
    expect(state.withdrawn).toEqual(['queued']);
    expect(state.held).toEqual([1, 2]);
  });
});
