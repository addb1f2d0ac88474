import { describe, expect, it } from 'vitest';
import { offlineWaitOf } from './offline-wait';

// docs/architecture.md, "Devices a job waits for": when a step's timeout counts as passed.

const steps = [
  { stepOrder: 1, timeoutSeconds: 300 },
  { stepOrder: 2, timeoutSeconds: 60 },
];
const at = (iso: string) => new Date(iso);
const base = {
  status: 'running' as const,
  expiresAt: at('2026-11-27T10:00:00Z'),
  offlineSince: at('2026-11-26T10:05:00Z'),
  currentStepOrder: 1,
  stepStartedAt: at('2026-11-26T10:00:00Z'),
};

describe('offlineWaitOf', () => {
  it('gives offline-since and the expiry', () => {
    expect(offlineWaitOf(base, steps, at('2026-11-26T10:04:00Z'))).toEqual({
      offline_since: '2026-11-26T10:05:00.000Z',
      expires_at: '2026-11-27T10:00:00.000Z',
      step_timeout_passed_at: null,
    });
  });

  it("marks the running step's timeout once it has passed (the current step's own timeout)", () => {
    const now = at('2026-11-26T10:27:00Z');
    expect(offlineWaitOf(base, steps, now).step_timeout_passed_at).toBe('2026-11-26T10:05:00.000Z');
    expect(offlineWaitOf({ ...base, currentStepOrder: 2 }, steps, now).step_timeout_passed_at).toBe(
      '2026-11-26T10:01:00.000Z',
    );
  });

  it('marks no timeout for a pending row, a step not shown running, or an unknown step', () => {
    const now = at('2026-11-26T12:00:00Z');
    expect(offlineWaitOf({ ...base, status: 'pending' }, steps, now).step_timeout_passed_at).toBeNull();
    expect(offlineWaitOf({ ...base, stepStartedAt: null }, steps, now).step_timeout_passed_at).toBeNull();
    expect(offlineWaitOf({ ...base, currentStepOrder: 9 }, steps, now).step_timeout_passed_at).toBeNull();
  });
});
