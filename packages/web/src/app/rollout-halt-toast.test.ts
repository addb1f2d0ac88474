import { describe, expect, it } from 'vitest';
import { notificationFor } from './live-notifications';
import { fetchedRolloutStateOf, noteJobs } from '../lib/deployment-status';

// docs/product/rollouts.md#gates: the "Rollout Halted" toast is for a halt, not for a later update
// of a rollout the portal already fetched as halted (a device of it going offline, say).

describe('the rollout states the portal fetched', () => {
  it('remembers a fetched rollout state, so an update repeating a known halt raises no toast', () => {
    noteJobs([{ id: 9101, name: 'Staged rollout', status: 'running', rollout_state: 'halted' }]);
    expect(fetchedRolloutStateOf(9101)).toBe('halted');
    const update = {
      type: 'deployment_update',
      payload: {
        deploymentId: 9101,
        status: 'running',
        rollout_state: 'halted',
        rollout_reason: 'Wave 2 halted',
      },
    } as const;
    expect(
      notificationFor(update, undefined, {
        previous: 'running',
        previousRollout: fetchedRolloutStateOf(9101),
      }),
    ).toBeNull();
  });

  it('still announces a halt of a rollout fetched while it ran', () => {
    noteJobs([{ id: 9102, name: 'Staged rollout', status: 'running', rollout_state: 'running' }]);
    const update = {
      type: 'deployment_update',
      payload: {
        deploymentId: 9102,
        status: 'running',
        rollout_state: 'halted',
        rollout_reason: 'Wave 1 halted',
      },
    } as const;
    expect(
      notificationFor(update, undefined, { previousRollout: fetchedRolloutStateOf(9102) }),
    ).toMatchObject({
      title: 'Rollout Halted',
    });
  });

  it('knows nothing of a job without a rollout', () => {
    noteJobs([{ id: 9103, name: 'Plain', status: 'running', rollout_state: null }]);
    expect(fetchedRolloutStateOf(9103)).toBeUndefined();
  });
});
