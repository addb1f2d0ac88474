import { describe, expect, it } from 'vitest';
import { STEP_CATALOG, defaultStepDetails, parseStepDetails } from './step-catalog';
import { packageMessages } from './messages';
import { StepBody } from './packages';
import { STEP_TARGETS } from './targets';

// docs/product/rollouts.md#reboot-message-and-wait-steps: the REBOOT, MESSAGE and WAIT steps as
// the server checks them when a package is saved.

const errorOf = (r: ReturnType<typeof parseStepDetails>) => (r.success ? null : r.error);

describe('WAIT', () => {
  it('takes 1 to 86,400 whole seconds', () => {
    expect(parseStepDetails('WAIT', { seconds: 30 })).toEqual({ success: true, data: { seconds: 30 } });
    expect(parseStepDetails('WAIT', { seconds: '600' })).toEqual({ success: true, data: { seconds: 600 } });
    for (const seconds of [0, -1, 86_401, 1.5]) {
      expect(errorOf(parseStepDetails('WAIT', { seconds }))).toBe(
        packageMessages.stepFieldRange('Seconds', 1, 86_400),
      );
    }
  });

  it('a missing or blank number reads "missing", not 0', () => {
    expect(errorOf(parseStepDetails('WAIT', {}))).toBe(packageMessages.requiredStepFields(['Seconds']));
    expect(errorOf(parseStepDetails('WAIT', { seconds: '' }))).toBe(
      packageMessages.requiredStepFields(['Seconds']),
    );
    expect(errorOf(parseStepDetails('WAIT', { seconds: 'soon' }))).toBe(
      packageMessages.stepFieldNumber('Seconds'),
    );
  });
});

describe('MESSAGE', () => {
  it('needs a title and a message; the time-out is optional and bounded', () => {
    expect(errorOf(parseStepDetails('MESSAGE', { title: ' ', message: '' }))).toBe(
      packageMessages.requiredStepFields(['Title', 'Message']),
    );
    const ok = parseStepDetails('MESSAGE', { title: ' IT ', message: 'Line 1\nLine 2', timeout_seconds: '' });
    expect(ok).toEqual({ success: true, data: { title: 'IT', message: 'Line 1\nLine 2' } });
    expect(errorOf(parseStepDetails('MESSAGE', { title: 'IT', message: 'x', timeout_seconds: 0 }))).toBe(
      packageMessages.stepFieldRange('Close After (seconds)', 1, 86_400),
    );
  });
});

describe('REBOOT', () => {
  it('fills the defaults: 60 s delay, no deferrals, ask again after 60 minutes', () => {
    expect(parseStepDetails('REBOOT', {})).toEqual({
      success: true,
      data: { delay_seconds: 60, max_deferrals: 0, deferral_minutes: 60 },
    });
    expect(defaultStepDetails('REBOOT')).toEqual({
      delay_seconds: 60,
      max_deferrals: 0,
      deferral_minutes: 60,
    });
  });

  it('allows 0 to 10 deferrals', () => {
    const r = parseStepDetails('REBOOT', { max_deferrals: 10, deferral_minutes: 5, message: 'Bye' });
    expect(r.success && r.data).toMatchObject({ max_deferrals: 10, deferral_minutes: 5, message: 'Bye' });
    expect(errorOf(parseStepDetails('REBOOT', { max_deferrals: 11 }))).toBe(
      packageMessages.stepFieldRange('Maximum Deferrals', 0, 10),
    );
    expect(errorOf(parseStepDetails('REBOOT', { deferral_minutes: 0 }))).toBe(
      packageMessages.stepFieldRange('Ask Again After (minutes)', 1, 1440),
    );
    expect(errorOf(parseStepDetails('REBOOT', { delay_seconds: -5 }))).toBe(
      packageMessages.stepFieldRange('Delay (seconds)', 0, 86_400),
    );
  });
});

describe('the new types in the catalogue', () => {
  it('run on every target and have a label', () => {
    for (const type of ['REBOOT', 'MESSAGE', 'WAIT'] as const) {
      expect(STEP_TARGETS[type]).toEqual(['windows', 'linux', 'macos']);
      expect(STEP_CATALOG[type].label).not.toBe('');
    }
  });

  it('EXE and MSI offer reboot_on_request, off by default', () => {
    const exe = parseStepDetails('EXE', { source_type: 'url', url: 'https://e.com/a.exe' });
    expect(exe.success && exe.data.reboot_on_request).toBe(false);
    const msi = parseStepDetails('MSI', {
      source_type: 'url',
      url: 'https://e.com/a.msi',
      reboot_on_request: true,
    });
    expect(msi.success && msi.data.reboot_on_request).toBe(true);
  });

  it('a step body with a WAIT step parses with the package rules', () => {
    const body = StepBody.safeParse({ step_name: 'Pause', step_type: 'WAIT', step_details: { seconds: 5 } });
    expect(body.success).toBe(true);
  });
});
