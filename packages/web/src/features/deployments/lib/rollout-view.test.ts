import { describe, expect, it } from 'vitest';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import type { Rollout, RolloutWave } from '@outpost/contract/rollouts';
import { notificationFor } from '../../../app/live-notifications';
import { applyDetailUpdate, applyJobUpdate } from './live-jobs';
import { countdown, rolloutActions, rolloutEvents } from './rollout-view';
import { defaultRolloutValues, rolloutPlan, rolloutProblems } from '../../../components/rollout/rollout-form';

// docs/product/rollouts.md — the rollout's words, actions, timeline moments, live patches and the halt toast.

const wave = (index: number, over: Partial<RolloutWave> = {}): RolloutWave =>
  ({
    index,
    name: `Wave ${index + 1}`,
    state: 'waiting',
    started_at: null,
    passed_at: null,
    gate_skipped_reason: null,
    gate_skipped_by_name: null,
    ...over,
  }) as RolloutWave;

const rollout = (over: Partial<Rollout> = {}): Rollout => ({
  mode: 'percent',
  state: 'running',
  current_wave: 1,
  state_reason: null,
  state_changed_at: null,
  waves: [
    wave(0, { state: 'passed', started_at: '2026-11-27T09:00:00Z', passed_at: '2026-11-27T09:10:00Z' }),
    wave(1, { state: 'running', started_at: '2026-11-27T09:10:00Z' }),
    wave(2),
  ],
  ...over,
});

describe('rollout form', () => {
  it('sends nothing while off and mirrors the contract when on', () => {
    expect(rolloutPlan(defaultRolloutValues())).toBeUndefined();
    expect(rolloutProblems(defaultRolloutValues())).toEqual([]);
    const on = { ...defaultRolloutValues(), isOn: true, percents: [{ value: '50' }, { value: '90' }] };
    expect(rolloutProblems(on)).toEqual([{ field: 'waves', index: 1, message: 'The last wave is 100 %' }]);
  });
});

describe('rollout view', () => {
  it('offers the actions of each state', () => {
    expect(rolloutActions(rollout())).toEqual(['pause', 'skip-gate', 'abort']);
    expect(rolloutActions(rollout({ state: 'paused' }))).toEqual(['resume', 'skip-gate', 'abort']);
    expect(rolloutActions(rollout({ state: 'halted' }))).toEqual(['resume', 'skip-gate', 'abort']);
    expect(rolloutActions(rollout({ state: 'completed' }))).toEqual([]);
    // a wave not dispatched yet has no gate to skip
    expect(rolloutActions(rollout({ state: 'paused', current_wave: 2 }))).toEqual(['resume', 'abort']);
  });

  it('counts down to a time, never below zero', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(countdown('2026-11-27T10:04:05Z', now)).toBe('4:05');
    expect(countdown('2026-11-27T11:00:05Z', now)).toBe('1:00:05');
    expect(countdown('2026-11-27T09:00:00Z', now)).toBe('0:00');
  });

  it('lists waves started and passed, then a halt with its reason, in time order', () => {
    const events = rolloutEvents(
      rollout({
        state: 'halted',
        state_reason: '3 of 20 devices failed',
        state_changed_at: '2026-11-27T09:20:00Z',
      }),
    );
    expect(events.map((e) => e.label)).toEqual([
      'Wave 1 started',
      'Wave 1 passed its gate',
      'Wave 2 started',
      'Rollout halted: 3 of 20 devices failed',
    ]);
    const resumed = rolloutEvents(
      rollout({ state_reason: 'Resumed by Sam', state_changed_at: '2026-11-27T09:30:00Z' }),
    );
    expect(resumed.at(-1)?.label).toBe('Rollout resumed: Resumed by Sam');
  });
});

describe('live rollout updates', () => {
  const detail = {
    id: 9,
    status: 'running',
    rollout: rollout(),
    deployments: [{ id: 3, status: 'pending', hold: 'wave' }],
  } as unknown as DeploymentJobDetail;

  it('patches the state, wave, reason and a device hold', () => {
    const next = applyDetailUpdate(detail, {
      deploymentId: 9,
      rollout_state: 'halted',
      current_wave: 1,
      rollout_reason: 'Too many failures',
      deviceDeploymentId: 3,
      deviceHold: 'halted',
    });
    expect(next.rollout).toMatchObject({
      state: 'halted',
      current_wave: 1,
      state_reason: 'Too many failures',
    });
    expect(next.rollout_state).toBe('halted');
    expect(next.deployments[0]?.hold).toBe('halted');
    expect(
      applyJobUpdate({ ...detail, rollout_state: 'running' }, { deploymentId: 9, rollout_state: 'paused' })
        .rollout_state,
    ).toBe('paused');
  });

  it('toasts a halt once, with the reason, and it stays', () => {
    const event = {
      type: 'deployment_update',
      payload: { deploymentId: 9, rollout_state: 'halted', rollout_reason: '3 of 20 devices failed' },
    } as const;
    const toast = notificationFor(event, undefined, { name: 'Chrome rollout', previousRollout: 'running' });
    expect(toast).toMatchObject({
      type: 'error',
      title: 'Rollout Halted',
      message: 'Chrome rollout: 3 of 20 devices failed',
      duration: 0,
    });
    expect(
      notificationFor(event, undefined, { name: 'Chrome rollout', previousRollout: 'halted' }),
    ).toBeNull();
  });
});
