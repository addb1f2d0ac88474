import { describe, expect, it } from 'vitest';
import { stepSummary } from './step-summary';

// docs/product/rollouts.md#reboot-message-and-wait-steps: the builder's step list tells a Wait
// and a Reboot step apart by their seconds and delay.

describe('stepSummary of the device steps', () => {
  it('shows the seconds of a Wait step', () => {
    expect(stepSummary('WAIT', { seconds: 90 })).toBe('Wait 90 s');
    expect(stepSummary('WAIT', { seconds: 86_400 })).toBe('Wait 86,400 s');
    expect(stepSummary('WAIT', {})).toBe('');
  });

  it("shows a Reboot step's delay, its deferrals and its message", () => {
    expect(stepSummary('REBOOT', { delay_seconds: 0 })).toBe('Restart after 0 s');
    expect(stepSummary('REBOOT', {})).toBe('Restart after 60 s');
    expect(
      stepSummary('REBOOT', {
        delay_seconds: 300,
        max_deferrals: 3,
        message: 'Saving your work\nsecond line',
      }),
    ).toBe('Restart after 300 s · up to 3 deferrals · “Saving your work”');
    expect(stepSummary('REBOOT', { delay_seconds: 30, max_deferrals: 1 })).toBe(
      'Restart after 30 s · up to 1 deferral',
    );
  });

  it('shows the title and first line of a Message step', () => {
    expect(stepSummary('MESSAGE', { title: 'IT notice', message: 'Restart tonight\nThanks' })).toBe(
      'IT notice: Restart tonight',
    );
  });
});
