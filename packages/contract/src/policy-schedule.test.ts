import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PolicySchedule } from './policies';
import type { PolicySchedule as Schedule } from './policies';
import {
  describeSchedule,
  isTimeZone,
  nextOccurrence,
  previousOccurrence,
  wallToInstant,
  zoneOffsetMs,
} from './policy-schedule';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

/** The local wall-clock "YYYY-MM-DD HH:MM" of an instant in a zone. */
function local(ms: number, timeZone: string): string {
  const f = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return f.format(new Date(ms));
}

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
];

describe('policy schedules', () => {
  it('reads zone offsets and local times', () => {
    expect(zoneOffsetMs(at('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(3_600_000);
    expect(zoneOffsetMs(at('2026-07-15T12:00:00Z'), 'Europe/Berlin')).toBe(7_200_000);
    expect(iso(wallToInstant(Date.UTC(2026, 0, 15, 2, 30), 'America/New_York'))).toBe(
      '2026-01-15T07:30:00.000Z',
    );
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('runs a weekly 02:30 in Berlin at 03:30 CEST on the spring-forward Sunday (the gap), once', () => {
    const weekly: Schedule = { frequency: 'weekly', time: '02:30', weekdays: [0] };
    // Sunday 29 March 2026: clocks go from 02:00 CET to 03:00 CEST
    const next = nextOccurrence(weekly, 'Europe/Berlin', at('2026-03-25T00:00:00Z'));
    expect(iso(next)).toBe('2026-03-29T01:30:00.000Z');
    expect(local(next!, 'Europe/Berlin')).toBe('2026-03-29 03:30');
    // the week before and after at 02:30 local
    expect(iso(nextOccurrence(weekly, 'Europe/Berlin', at('2026-03-18T00:00:00Z')))).toBe(
      '2026-03-22T01:30:00.000Z',
    );
    expect(iso(nextOccurrence(weekly, 'Europe/Berlin', next!))).toBe('2026-04-05T00:30:00.000Z');
  });

  it('runs a 02:30 in the autumn overlap once, at the first 02:30 (CEST)', () => {
    const daily: Schedule = { frequency: 'daily', time: '02:30' };
    const first = nextOccurrence(daily, 'Europe/Berlin', at('2026-10-24T12:00:00Z'));
    expect(iso(first)).toBe('2026-10-25T00:30:00.000Z');
    // the second 02:30 (CET, an hour later) is not another occurrence: the next is the 26th
    expect(iso(nextOccurrence(daily, 'Europe/Berlin', first!))).toBe('2026-10-26T01:30:00.000Z');
  });

  it('runs monthly on the last day and on a fixed day', () => {
    const last: Schedule = { frequency: 'monthly', time: '23:00', day_of_month: 'last' };
    expect(iso(nextOccurrence(last, 'UTC', at('2028-02-01T00:00:00Z')))).toBe('2028-02-29T23:00:00.000Z');
    expect(iso(nextOccurrence(last, 'UTC', at('2027-02-28T23:00:00Z')))).toBe('2027-03-31T23:00:00.000Z');
    const fifth: Schedule = { frequency: 'monthly', time: '06:00', day_of_month: 5 };
    expect(iso(previousOccurrence(fifth, 'America/New_York', at('2026-12-04T00:00:00Z')))).toBe(
      '2026-11-05T11:00:00.000Z',
    );
  });

  it('describes schedules in words', () => {
    expect(describeSchedule({ frequency: 'daily', time: '01:00' })).toBe('Every day at 01:00');
    expect(describeSchedule({ frequency: 'weekly', time: '02:30', weekdays: [1, 4] })).toBe(
      'Every Monday and Thursday at 02:30',
    );
    expect(describeSchedule({ frequency: 'monthly', time: '03:00', day_of_month: 'last' })).toBe(
      'On the last day of every month at 03:00',
    );
    expect(describeSchedule({ frequency: 'monthly', time: '03:00', day_of_month: 22 })).toBe(
      'On the 22nd of every month at 03:00',
    );
  });

  it('refuses bad schedules with clear messages', () => {
    const problems = (input: unknown) => {
      const r = PolicySchedule.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(problems({ frequency: 'weekly', time: '2:30', weekdays: [1] })).toContain(
      'Time must be HH:MM (24-hour), e.g. 02:30',
    );
    expect(problems({ frequency: 'weekly', time: '02:30', weekdays: [] })).toContain(
      'Choose at least one day of the week',
    );
    expect(problems({ frequency: 'monthly', time: '02:30', day_of_month: 31 })).toContain(
      'Day of the month must be 1 to 28, or "last"',
    );
    expect(problems({ frequency: 'hourly', time: '02:30' })).toContain(
      'Frequency must be daily, weekly or monthly',
    );
  });

  const schedules: fc.Arbitrary<Schedule> = fc.oneof(
    fc.record({
      frequency: fc.constant('daily' as const),
      time: fc.constantFrom('00:00', '02:30', '12:15', '23:59'),
    }),
    fc.record({
      frequency: fc.constant('weekly' as const),
      time: fc.constantFrom('01:30', '02:30', '03:00', '23:00'),
      weekdays: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1 }).map((d) => d.sort()),
    }),
    fc.record({
      frequency: fc.constant('monthly' as const),
      time: fc.constantFrom('00:30', '02:30'),
      day_of_month: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant('last' as const)),
    }),
  );

  it('next is after the instant, previous at or before it, and nothing lies between them', () => {
    fc.assert(
      fc.property(
        schedules,
        fc.constantFrom(...ZONES),
        fc.integer({ min: at('2025-01-01T00:00:00Z'), max: at('2030-12-31T00:00:00Z') }),
        (schedule, zone, now) => {
          const next = nextOccurrence(schedule, zone, now)!;
          const prev = previousOccurrence(schedule, zone, now)!;
          expect(next).toBeGreaterThan(now);
          expect(prev).toBeLessThanOrEqual(now);
          // the occurrence after the previous one is the next one: none was skipped
          expect(nextOccurrence(schedule, zone, prev)).toBe(next);
          expect(previousOccurrence(schedule, zone, next)).toBe(next);
          // an occurrence is at the schedule's local time unless that time fell in a gap
          const [h, m] = schedule.time.split(':').map(Number) as [number, number];
          const wall = local(next, zone).slice(11);
          const [lh, lm] = wall.split(':').map(Number) as [number, number];
          const minutes = lh * 60 + lm - (h * 60 + m);
          expect(minutes === 0 || (minutes > 0 && minutes <= 60)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
