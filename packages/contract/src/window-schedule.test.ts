import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  localWhen,
  startMinuteOf,
  startTimeOf,
  untilText,
  wallStart,
  windowHoldNote,
  windowIntervals,
  windowState,
  windowZone,
} from './window-schedule';
import type { WindowSpec } from './window-schedule';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);
const H = 3_600_000;

const win = (days: number[], time: string, minutes: number, enabled = true): WindowSpec => ({
  days,
  startMinute: startMinuteOf(time),
  durationMinutes: minutes,
  enabled,
});

function local(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
}

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata'];

describe('maintenance window schedule', () => {
  it('reads start times', () => {
    expect(startMinuteOf('00:00')).toBe(0);
    expect(startMinuteOf('22:30')).toBe(1350);
    expect(startTimeOf(1350)).toBe('22:30');
    expect(startTimeOf(5)).toBe('00:05');
    expect(windowZone(null)).toBe('UTC');
    expect(windowZone('')).toBe('UTC');
    expect(windowZone('Europe/Berlin')).toBe('Europe/Berlin');
  });

  it('is inside a Berlin window on its weekday and outside before and after', () => {
    // Tuesday 22:00 for 2 h, Berlin in winter (UTC+1)
    const w = [win([2], '22:00', 120)];
    const before = windowState(w, 'Europe/Berlin', at('2026-01-13T20:59:00Z'));
    expect(before.inside).toBe(false);
    expect(iso(before.nextOpensAt)).toBe('2026-01-13T21:00:00.000Z');
    const inside = windowState(w, 'Europe/Berlin', at('2026-01-13T21:00:00Z'));
    expect(inside).toEqual({
      inside: true,
      endsAt: at('2026-01-13T23:00:00Z'),
      nextOpensAt: at('2026-01-20T21:00:00Z'),
    });
    const after = windowState(w, 'Europe/Berlin', at('2026-01-13T23:00:00Z'));
    expect(after.inside).toBe(false);
    expect(iso(after.nextOpensAt)).toBe('2026-01-20T21:00:00.000Z');
  });

  it('runs a window across midnight into the next day', () => {
    // Saturday 23:00 for 3 h in New York (UTC-5): Sat 23:00 → Sun 02:00 local
    const w = [win([6], '23:00', 180)];
    const sundayOne = at('2026-01-18T06:00:00Z'); // Sun 01:00 local
    const s = windowState(w, 'America/New_York', sundayOne);
    expect(s.inside).toBe(true);
    expect(local(s.endsAt!, 'America/New_York')).toBe('2026-01-18 02:00');
    // Sunday itself is not a window day: Sunday 23:30 local is outside
    expect(windowState(w, 'America/New_York', at('2026-01-19T04:30:00Z')).inside).toBe(false);
  });

  it('opens a 02:30 window at 03:00 on the spring-forward day (Berlin, Sunday 29 March 2026)', () => {
    const w = [win([0], '02:30', 120)];
    const s = windowState(w, 'Europe/Berlin', at('2026-03-28T12:00:00Z'));
    expect(iso(s.nextOpensAt)).toBe('2026-03-29T01:00:00.000Z');
    expect(local(s.nextOpensAt!, 'Europe/Berlin')).toBe('2026-03-29 03:00');
    const inside = windowState(w, 'Europe/Berlin', at('2026-03-29T01:00:00Z'));
    expect(inside.inside).toBe(true);
    // closes at 04:30 local wall time
    expect(local(inside.endsAt!, 'Europe/Berlin')).toBe('2026-03-29 04:30');
    expect(windowState(w, 'Europe/Berlin', at('2026-03-29T00:59:00Z')).inside).toBe(false);
  });

  it('opens a 02:30 window at 03:00 on the spring-forward day (New York, Sunday 8 March 2026)', () => {
    const w = [win([0], '02:30', 60)];
    const s = windowState(w, 'America/New_York', at('2026-03-07T12:00:00Z'));
    expect(local(s.nextOpensAt!, 'America/New_York')).toBe('2026-03-08 03:00');
    expect(iso(s.nextOpensAt)).toBe('2026-03-08T07:00:00.000Z');
    const inside = windowState(w, 'America/New_York', s.nextOpensAt!);
    expect(local(inside.endsAt!, 'America/New_York')).toBe('2026-03-08 03:30');
  });

  it('opens once on the fall-back day (New York, Sunday 1 November 2026: 01:00–02:00 twice)', () => {
    const w = [win([0], '01:30', 60)];
    const s = windowState(w, 'America/New_York', at('2026-10-31T12:00:00Z'));
    // the first 01:30 (EDT, UTC-4)
    expect(iso(s.nextOpensAt)).toBe('2026-11-01T05:30:00.000Z');
    const inside = windowState(w, 'America/New_York', s.nextOpensAt!);
    // closes at 02:30 wall time (EST): two real hours
    expect(iso(inside.endsAt)).toBe('2026-11-01T07:30:00.000Z');
    // the second 01:30 (EST) is inside the same opening, not a new one
    const second = windowState(w, 'America/New_York', at('2026-11-01T06:30:00Z'));
    expect(second.inside).toBe(true);
    expect(iso(second.endsAt)).toBe('2026-11-01T07:30:00.000Z');
    expect(iso(second.nextOpensAt)).toBe('2026-11-08T06:30:00.000Z');
  });

  it('opens once on the fall-back day (Berlin, Sunday 25 October 2026: 02:00–03:00 twice)', () => {
    const w = [win([0], '02:15', 30)];
    const s = windowState(w, 'Europe/Berlin', at('2026-10-24T12:00:00Z'));
    expect(iso(s.nextOpensAt)).toBe('2026-10-25T00:15:00.000Z'); // 02:15 CEST
    const inside = windowState(w, 'Europe/Berlin', s.nextOpensAt!);
    expect(iso(inside.endsAt)).toBe('2026-10-25T00:45:00.000Z');
    // 02:15 CET (the second pass) does not open the window again
    expect(windowState(w, 'Europe/Berlin', at('2026-10-25T01:20:00Z')).inside).toBe(false);
  });

  it('joins windows that touch or overlap and ignores disabled ones', () => {
    const w = [
      win([1], '20:00', 120),
      win([1], '22:00', 60),
      win([1], '21:00', 30),
      win([1], '10:00', 60, false),
    ];
    const s = windowState(w, 'UTC', at('2026-01-12T20:30:00Z'));
    expect(s).toEqual({
      inside: true,
      endsAt: at('2026-01-12T23:00:00Z'),
      nextOpensAt: at('2026-01-19T20:00:00Z'),
    });
    expect(windowState(w, 'UTC', at('2026-01-12T10:30:00Z')).inside).toBe(false);
    expect(windowState([win([1], '10:00', 60, false)], 'UTC', at('2026-01-12T10:30:00Z'))).toEqual({
      inside: false,
      endsAt: null,
      nextOpensAt: null,
    });
  });

  it('reads the same rule in two zones for the same instant', () => {
    const w = [win([3], '02:00', 120)];
    const instant = at('2026-06-17T01:00:00Z'); // Wed 03:00 Berlin (CEST), Tue 21:00 New York
    expect(windowState(w, 'Europe/Berlin', instant).inside).toBe(true);
    const ny = windowState(w, 'America/New_York', instant);
    expect(ny.inside).toBe(false);
    expect(local(ny.nextOpensAt!, 'America/New_York')).toBe('2026-06-17 02:00');
  });

  it('finds the moment a gap ends', () => {
    expect(iso(wallStart(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin'))).toBe('2026-03-29T01:00:00.000Z');
    expect(iso(wallStart(Date.UTC(2026, 2, 29, 1, 30), 'Europe/Berlin'))).toBe('2026-03-29T00:30:00.000Z');
  });

  it('writes notes and relative times', () => {
    expect(localWhen(at('2026-01-13T21:00:00Z'), 'Europe/Berlin')).toBe('Tue 22:00');
    expect(untilText(at('2026-01-13T21:00:00Z'), at('2026-01-13T18:00:00Z'))).toBe('in 3 h');
    expect(untilText(at('2026-01-13T21:00:00Z'), at('2026-01-13T20:35:00Z'))).toBe('in 25 min');
    expect(untilText(at('2026-01-16T21:00:00Z'), at('2026-01-13T20:35:00Z'))).toBe('in 3 d');
    expect(windowHoldNote(at('2026-01-13T21:00:00Z'), 'Europe/Berlin')).toBe(
      'Waiting for its maintenance window (opens Tue 22:00 Europe/Berlin)',
    );
  });

  const arbWindow = fc.record({
    days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
    startMinute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
    durationMinutes: fc.integer({ min: 15, max: 24 * 60 }),
  });
  const arbInstant = fc.integer({ min: at('2025-01-01T00:00:00Z'), max: at('2028-01-01T00:00:00Z') });

  it('property: inside ⇔ an interval covers the instant; the next opening is after it and outside of it', () => {
    fc.assert(
      fc.property(
        fc.array(arbWindow, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...ZONES),
        arbInstant,
        (ws, zone, t) => {
          const s = windowState(ws, zone, t);
          if (s.nextOpensAt === null) {
            // windows that together cover every hour of the week never open again: always inside
            expect(s.inside).toBe(true);
            expect(s.endsAt! - t).toBeGreaterThanOrEqual(7 * 24 * H);
            return;
          }
          expect(s.nextOpensAt).toBeGreaterThan(t);
          expect(s.nextOpensAt - t).toBeLessThanOrEqual(8 * 24 * H);
          if (s.inside) {
            expect(s.endsAt!).toBeGreaterThan(t);
            expect(s.nextOpensAt).toBeGreaterThan(s.endsAt!);
          } else {
            expect(s.endsAt).toBeNull();
            // just before the next opening it is still outside, at it inside
            expect(windowState(ws, zone, s.nextOpensAt - 1000).inside).toBe(false);
            expect(windowState(ws, zone, s.nextOpensAt).inside).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('property: an opening is on a window day at the start time (or the end of a gap)', () => {
    fc.assert(
      fc.property(arbWindow, fc.constantFrom(...ZONES), arbInstant, (w, zone, t) => {
        const open = windowState([w], zone, t).nextOpensAt;
        if (open === null) {
          // a whole-day window on every day never closes, so nothing opens next
          expect(w.days.length === 7 && w.durationMinutes >= 24 * 60).toBe(true);
          return;
        }
        const [day, time] = local(open, zone).split(' ') as [string, string];
        const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
        if (time === startTimeOf(w.startMinute)) {
          expect(w.days).toContain(weekday);
        } else {
          // the start fell into a spring-forward gap: it opens right after the gap
          expect(wallStart(Date.parse(`${day}T${startTimeOf(w.startMinute)}:00Z`), zone)).toBe(open);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('property: intervals are sorted and disjoint', () => {
    fc.assert(
      fc.property(
        fc.array(arbWindow, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...ZONES),
        arbInstant,
        (ws, zone, t) => {
          const list = windowIntervals(ws, zone, t, t + 7 * 24 * H);
          for (let i = 1; i < list.length; i++) {
            expect(list[i]!.opensAt).toBeGreaterThan(list[i - 1]!.closesAt);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
