import { describe, expect, it } from 'vitest';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { deployProblems, isScheduleInPast, validateDeploy } from './deploy-form';

// A schedule in the past is refused before sending; each rule names its field.

const now = new Date('2026-11-26T10:30:40');
const later = (date: string, time: string) => ({ timing: 'later' as const, date, time });

describe('a schedule in the past', () => {
  it('is a date before today, with or without a time', () => {
    expect(isScheduleInPast(later('2026-11-25', ''), now)).toBe(true);
    expect(isScheduleInPast(later('2020-01-02', '09:30'), now)).toBe(true);
  });

  it('is today at an earlier minute; the current minute and later are not', () => {
    expect(isScheduleInPast(later('2026-11-26', '10:29'), now)).toBe(true);
    expect(isScheduleInPast(later('2026-11-26', '10:30'), now)).toBe(false);
    expect(isScheduleInPast(later('2026-11-26', '11:00'), now)).toBe(false);
    expect(isScheduleInPast(later('2026-11-26', ''), now)).toBe(false);
  });

  it('does not apply to deploying now', () => {
    expect(isScheduleInPast({ timing: 'now', date: '2020-01-02', time: '09:30' }, now)).toBe(false);
  });
});

describe('deploy problems', () => {
  it('lists every broken rule with its field, in the spec order, the past schedule last', () => {
    const problems = deployProblems(
      { packageCount: 0, devices: [], jobName: ' ', schedule: later('2020-01-02', '09:30') },
      now,
    );
    expect(problems).toEqual([
      { field: 'packages', message: messages.selectPackage },
      { field: 'devices', message: messages.selectDevice },
      { field: 'jobName', message: messages.jobNameRequired },
      { field: 'schedule', message: messages.scheduledInPast },
    ]);
  });

  it('refuses a past schedule of an otherwise complete form', () => {
    const form = { packageCount: 1, devices: [{ status: 'online' }], jobName: 'x' };
    expect(validateDeploy({ ...form, schedule: later('2020-01-02', '09:30') }, now)).toBe(
      messages.scheduledInPast,
    );
    expect(validateDeploy({ ...form, schedule: later('2099-01-02', '09:30') }, now)).toBeNull();
  });
});
