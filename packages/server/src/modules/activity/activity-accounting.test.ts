import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DAY_MS,
  HOUR_MS,
  applyEvent,
  dailyTotals,
  effectiveTime,
  emptyState,
  hourlySlots,
  splitByUtcDay,
  timeline,
  union,
  utilisation,
  weeklyRows,
  withOpenIntervals,
} from './activity-accounting';
import type { AccountingEvent, AccountingState, ActivityKind, DayTotals } from './activity-accounting';

const t = (iso: string) => Date.parse(iso);
const H = HOUR_MS;
const MIN = 60_000;

type Ev = [ActivityKind, string, string?, string?];

/** The events as the gateway would apply them: effective times, the incremental step. */
function incremental(events: readonly AccountingEvent[]) {
  let state: AccountingState = emptyState();
  const totals = new Map<string, DayTotals>();
  const accepted: AccountingEvent[] = [];
  for (const e of events) {
    const step = applyEvent(state, e);
    state = step.state;
    if (step.accepted) {
      accepted.push(e);
    }
    for (const d of step.deltas) {
      const cur = totals.get(d.day) ?? { onlineMs: 0, loggedInMs: 0, sessions: 0 };
      totals.set(d.day, {
        onlineMs: cur.onlineMs + d.onlineMs,
        loggedInMs: cur.loggedInMs + d.loggedInMs,
        sessions: cur.sessions + d.sessions,
      });
    }
  }
  return { state, totals, accepted };
}

const events = (list: Ev[]): AccountingEvent[] =>
  list.map(([type, iso, sessionId, userName]) => ({ type, at: t(iso), sessionId, userName }));

const plain = (m: ReadonlyMap<string, DayTotals>) =>
  Object.fromEntries([...m.entries()].filter(([, v]) => v.onlineMs || v.loggedInMs || v.sessions));

describe('activity accounting: hand-computed fixtures', () => {
  it('splits a session across midnight between the two UTC days', () => {
    const { totals, state } = incremental(
      events([
        ['online', '2026-01-05T20:00:00Z'],
        ['login', '2026-01-05T22:00:00Z', 's1', 'ACME\\ann'],
        ['logout', '2026-01-06T02:00:00Z', 's1', 'ACME\\ann'],
        ['offline', '2026-01-06T06:00:00Z'],
      ]),
    );
    expect(plain(totals)).toEqual({
      '2026-01-05': { onlineMs: 4 * H, loggedInMs: 2 * H, sessions: 1 },
      '2026-01-06': { onlineMs: 6 * H, loggedInMs: 2 * H, sessions: 0 },
    });
    expect(state.onlineSince).toBeNull();
    expect(splitByUtcDay(t('2026-01-05T22:00:00Z'), t('2026-01-07T01:00:00Z'))).toEqual([
      { day: '2026-01-05', ms: 2 * H },
      { day: '2026-01-06', ms: 24 * H },
      { day: '2026-01-07', ms: 1 * H },
    ]);
  });

  it('counts two overlapping users once: logged-in time is the time with anyone signed in', () => {
    const { totals } = incremental(
      events([
        ['online', '2026-01-05T08:00:00Z'],
        ['login', '2026-01-05T09:00:00Z', 'a', 'ann'],
        ['login', '2026-01-05T10:00:00Z', 'b', 'bob'],
        ['logout', '2026-01-05T11:00:00Z', 'a', 'ann'],
        ['logout', '2026-01-05T12:00:00Z', 'b', 'bob'],
        ['offline', '2026-01-05T17:00:00Z'],
      ]),
    );
    expect(plain(totals)).toEqual({ '2026-01-05': { onlineMs: 9 * H, loggedInMs: 3 * H, sessions: 2 } });
    expect(utilisation(3 * H, 9 * H)).toBe(33.3);
  });

  it('closes a session whose logout never came when the device goes offline', () => {
    const { totals, state } = incremental(
      events([
        ['online', '2026-01-05T08:00:00Z'],
        ['login', '2026-01-05T09:00:00Z', 's1', 'ann'],
        ['offline', '2026-01-05T12:00:00Z'],
        // the late logout of the closed session changes nothing
        ['logout', '2026-01-05T12:30:00Z', 's1', 'ann'],
      ]),
    );
    expect(plain(totals)).toEqual({ '2026-01-05': { onlineMs: 4 * H, loggedInMs: 3 * H, sessions: 1 } });
    expect(state.sessions).toEqual([]);
    expect(utilisation(3 * H, 4 * H)).toBe(75);
  });

  it('a device offline all day has no time that day and utilisation 0', () => {
    const { totals, state } = incremental(
      events([
        ['online', '2026-01-05T08:00:00Z'],
        ['offline', '2026-01-05T17:00:00Z'],
        ['online', '2026-01-07T08:00:00Z'],
        ['offline', '2026-01-07T09:00:00Z'],
      ]),
    );
    const day = totals.get('2026-01-06');
    expect(day).toBeUndefined();
    expect(utilisation(day?.loggedInMs ?? 0, day?.onlineMs ?? 0)).toBe(0);
    expect(withOpenIntervals(totals, state, t('2026-01-08T00:00:00Z')).get('2026-01-06')).toBeUndefined();
  });

  it('ignores what changes nothing: login while offline, a second login of an open session', () => {
    const { accepted, totals } = incremental(
      events([
        ['login', '2026-01-05T07:00:00Z', 'x', 'ann'],
        ['online', '2026-01-05T08:00:00Z'],
        ['online', '2026-01-05T08:30:00Z'],
        ['login', '2026-01-05T09:00:00Z', 's1', 'ann'],
        ['login', '2026-01-05T09:30:00Z', 's1', 'ann'],
        ['logout', '2026-01-05T10:00:00Z', 'zz', 'ann'],
        ['logout', '2026-01-05T11:00:00Z', 's1', 'ann'],
        ['offline', '2026-01-05T12:00:00Z'],
        ['offline', '2026-01-05T13:00:00Z'],
      ]),
    );
    expect(accepted.map((e) => e.type)).toEqual(['online', 'login', 'logout', 'offline']);
    expect(plain(totals)).toEqual({ '2026-01-05': { onlineMs: 4 * H, loggedInMs: 2 * H, sessions: 1 } });
  });

  it('a session resumed after a reconnect counts once that day', () => {
    const { totals } = incremental(
      events([
        ['online', '2026-01-05T08:00:00Z'],
        ['login', '2026-01-05T09:00:00Z', 's1', 'ann'],
        ['offline', '2026-01-05T10:00:00Z'],
        ['online', '2026-01-05T10:30:00Z'],
        ['login', '2026-01-05T10:30:00Z', 's1', 'ann'],
        ['logout', '2026-01-05T11:30:00Z', 's1', 'ann'],
        ['offline', '2026-01-05T12:00:00Z'],
      ]),
    );
    expect(plain(totals)).toEqual({ '2026-01-05': { onlineMs: 3.5 * H, loggedInMs: 2 * H, sessions: 1 } });
  });

  it('adds the open intervals up to now for today', () => {
    const { totals, state } = incremental(
      events([
        ['online', '2026-01-05T22:00:00Z'],
        ['login', '2026-01-06T01:00:00Z', 's1', 'ann'],
      ]),
    );
    expect(plain(withOpenIntervals(totals, state, t('2026-01-06T03:00:00Z')))).toEqual({
      '2026-01-05': { onlineMs: 2 * H, loggedInMs: 0, sessions: 0 },
      '2026-01-06': { onlineMs: 3 * H, loggedInMs: 2 * H, sessions: 1 },
    });
  });

  it('effective times never go back and never run ahead of receipt', () => {
    expect(effectiveTime(100, 200, null)).toBe(100);
    expect(effectiveTime(300, 200, null)).toBe(200);
    expect(effectiveTime(100, 200, 150)).toBe(150);
  });

  it('hourly slots: percentages of each slot, the current one up to now, sessions inside each', () => {
    const now = t('2026-01-05T10:30:00Z');
    const tl = timeline(
      events([
        ['online', '2026-01-05T08:15:00Z'],
        ['login', '2026-01-05T09:00:00Z', 'a', 'ann'],
        ['login', '2026-01-05T09:30:00Z', 'b', 'bob'],
        ['logout', '2026-01-05T09:45:00Z', 'a', 'ann'],
        ['logout', '2026-01-05T09:50:00Z', 'b', 'bob'],
        ['login', '2026-01-05T10:10:00Z', 'c', 'ann'],
      ]),
      now,
    );
    const slots = hourlySlots(tl, now, 12);
    expect(slots).toHaveLength(12);
    expect(slots[0]!.hour_slot).toBe('2026-01-04T23:00:00.000Z');
    expect(slots.slice(0, 9).every((s) => s.online_percentage === 0 && s.login_minutes === 0)).toBe(true);
    expect(slots[9]).toEqual({
      hour_slot: '2026-01-05T08:00:00.000Z',
      online_percentage: 75,
      login_minutes: 0,
      sessions: [],
      is_current: false,
    });
    expect(slots[10]).toEqual({
      hour_slot: '2026-01-05T09:00:00.000Z',
      online_percentage: 100,
      login_minutes: 50,
      sessions: [
        { user: 'ann', start_offset: 0, duration: 45 },
        { user: 'bob', start_offset: 30, duration: 20 },
      ],
      is_current: false,
    });
    expect(slots[11]).toEqual({
      hour_slot: '2026-01-05T10:00:00.000Z',
      online_percentage: 100,
      login_minutes: 20,
      sessions: [{ user: 'ann', start_offset: 10, duration: 20 }],
      is_current: true,
    });
    expect(slots.filter((s) => s.is_current)).toHaveLength(1);
  });

  it('weekly summary: the last 7 UTC days oldest first with sessions and hours', () => {
    const totals = new Map<string, DayTotals>([
      ['2026-01-05', { onlineMs: 9 * H, loggedInMs: 7.5 * H, sessions: 3 }],
      ['2026-01-07', { onlineMs: 2 * H, loggedInMs: 20 * MIN, sessions: 1 }],
      ['2025-12-31', { onlineMs: 9 * H, loggedInMs: 9 * H, sessions: 9 }],
    ]);
    expect(weeklyRows(totals, t('2026-01-07T15:00:00Z'), 7)).toEqual([
      { day_name: 'Thursday', activity_date: '2026-01-01', total_sessions: 0, total_login_hours: 0 },
      { day_name: 'Friday', activity_date: '2026-01-02', total_sessions: 0, total_login_hours: 0 },
      { day_name: 'Saturday', activity_date: '2026-01-03', total_sessions: 0, total_login_hours: 0 },
      { day_name: 'Sunday', activity_date: '2026-01-04', total_sessions: 0, total_login_hours: 0 },
      { day_name: 'Monday', activity_date: '2026-01-05', total_sessions: 3, total_login_hours: 7.5 },
      { day_name: 'Tuesday', activity_date: '2026-01-06', total_sessions: 0, total_login_hours: 0 },
      { day_name: 'Wednesday', activity_date: '2026-01-07', total_sessions: 1, total_login_hours: 0.33 },
    ]);
  });

  it('union merges overlapping and touching intervals', () => {
    expect(
      union([
        { start: 5, end: 8 },
        { start: 0, end: 2 },
        { start: 2, end: 3 },
        { start: 6, end: 7 },
        { start: 9, end: 9 },
      ]),
    ).toEqual([
      { start: 0, end: 3 },
      { start: 5, end: 8 },
    ]);
  });

  it('utilisation is 0 without online time and one decimal otherwise', () => {
    expect(utilisation(0, 0)).toBe(0);
    expect(utilisation(2, 3)).toBe(66.7);
    expect(utilisation(5, 5)).toBe(100);
  });
});

// ---------- property: incremental rollups equal a full recomputation ----------

const SESSIONS = ['s1', 's2', 's3'];

/** A random stream: kinds, sessions, agent clocks that run behind or ahead, gaps up to a day. */
const eventStream = fc.array(
  fc.record({
    type: fc.constantFrom<ActivityKind>('online', 'offline', 'login', 'logout', 'login', 'logout'),
    session: fc.constantFrom(...SESSIONS),
    gap: fc.integer({ min: 0, max: 20 * H }),
    skew: fc.integer({ min: -2 * H, max: 2 * H }),
  }),
  { maxLength: 60 },
);

describe('activity accounting: property', () => {
  it('rollups built event by event equal a recomputation from all the events', () => {
    fc.assert(
      fc.property(eventStream, fc.integer({ min: 0, max: 3 * DAY_MS }), (stream, tail) => {
        let received = t('2026-03-01T06:00:00Z');
        let last: number | null = null;
        const evs: AccountingEvent[] = stream.map((s) => {
          received += s.gap;
          const at = effectiveTime(received + s.skew, received, last);
          last = at;
          return { type: s.type, at, sessionId: s.session, userName: `user-${s.session}` };
        });
        const now = (last ?? received) + tail;
        const { totals, state } = incremental(evs);
        const read = withOpenIntervals(totals, state, now);
        const full = dailyTotals(timeline(evs, now));
        expect(plain(read)).toEqual(plain(full));
        for (const day of read.values()) {
          expect(day.loggedInMs).toBeLessThanOrEqual(day.onlineMs);
        }
      }),
      { numRuns: 300 },
    );
  });
});
