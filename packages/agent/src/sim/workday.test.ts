import { describe, expect, it } from 'vitest';
import { historyEvents, localClock, plannedSessionAt, workProfileOf, zonedTime } from './workday';
import type { HistoryEvent, WorkdayDevice } from './workday';

const device = (index: number, timeZone = 'America/New_York'): WorkdayDevice => ({
  index,
  users: ['ann.lee', 'bob.ray'],
  domain: 'ACME',
  machineId: `abcdef${String(index).padStart(2, '0')}-0000`,
  timeZone,
});

const SEED = 2026;
const from = Date.parse('2026-01-01T00:00:00Z');
const to = Date.parse('2026-01-31T00:00:00Z');

/** Online time and time with anyone signed in (the union), from a history. */
function utilisationOf(events: HistoryEvent[]) {
  let online = 0;
  let onlineSince: number | null = null;
  let loggedIn = 0;
  let since: number | null = null;
  const open = new Set<string>();
  for (const e of events) {
    if (e.type === 'online') {
      onlineSince = e.at;
    } else if (e.type === 'offline') {
      online += e.at - onlineSince!;
      onlineSince = null;
    } else if (e.type === 'login') {
      if (open.size === 0) {
        since = e.at;
      }
      open.add(e.sessionId!);
    } else {
      open.delete(e.sessionId!);
      if (open.size === 0) {
        loggedIn += e.at - since!;
      }
    }
  }
  return (loggedIn / online) * 100;
}

describe('working-day patterns', () => {
  it('local time: a New York wall clock in winter and summer', () => {
    expect(new Date(zonedTime(2026, 1, 5, 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-01-05T13:00:00.000Z',
    );
    expect(new Date(zonedTime(2026, 7, 6, 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-07-06T12:00:00.000Z',
    );
    expect(localClock(Date.parse('2026-01-05T13:30:00Z'), 'Europe/London')).toMatchObject({
      d: 5,
      minutes: 13 * 60 + 30,
      weekday: 1,
    });
  });

  it('histories are well formed: online/offline alternate, sessions inside, off at the end', () => {
    for (let index = 0; index < 10; index++) {
      const events = historyEvents(device(index), SEED, { from, to });
      let online = false;
      const open = new Set<string>();
      for (const e of events) {
        expect(e.at).toBeGreaterThanOrEqual(from);
        expect(e.at).toBeLessThanOrEqual(to);
        if (e.type === 'online' || e.type === 'offline') {
          expect(online).toBe(e.type === 'offline');
          online = e.type === 'online';
          if (!online) {
            expect(open.size).toBe(0);
          }
        } else {
          expect(online).toBe(true);
          if (e.type === 'login') {
            open.add(e.sessionId!);
          } else {
            expect(open.delete(e.sessionId!)).toBe(true);
          }
        }
      }
      expect(online).toBe(false);
    }
  });

  it('sessions are told apart by the first 8 characters of their id (what the portal shows)', () => {
    const ids = new Set<string>();
    for (let index = 0; index < 5; index++) {
      for (const e of historyEvents(device(index), SEED, { from, to })) {
        if (e.type === 'login') {
          ids.add(e.sessionId!);
        }
      }
    }
    const prefixes = new Set([...ids].map((id) => id.slice(0, 8)));
    expect(ids.size).toBeGreaterThan(20);
    expect(prefixes.size).toBe(ids.size);
  });

  it('office machines sign in during local office hours and are off at weekends', () => {
    const events = historyEvents(device(0), SEED, { from, to });
    for (const e of events.filter((x) => x.type === 'login')) {
      const c = localClock(e.at, 'America/New_York');
      expect(c.minutes).toBeGreaterThanOrEqual(7 * 60 + 30);
      expect(c.minutes).toBeLessThan(18 * 60);
      expect([0, 6]).not.toContain(c.weekday);
    }
    // Saturday 10 January: no event at all in New York
    expect(events.filter((e) => localClock(e.at, 'America/New_York').d === 10)).toEqual([]);
  });

  it('each profile lands in its utilisation band', () => {
    const band = (p: number) => (p >= 80 ? 'high' : p >= 60 ? 'good' : p >= 40 ? 'moderate' : 'low');
    const expected = {
      office: 'high',
      'late-office': 'good',
      shared: 'moderate',
      server: 'low',
      rare: 'low',
      'left-on': 'low',
    } as const;
    for (let index = 0; index < 20; index++) {
      const u = utilisationOf(historyEvents(device(index, 'Europe/London'), SEED, { from, to }));
      expect(band(u), `device ${index} (${workProfileOf(index)}): ${u.toFixed(1)} %`).toBe(
        expected[workProfileOf(index)],
      );
    }
  });

  it('the live plan matches the history: the same session at the same local time', () => {
    const d = device(1, 'Europe/London');
    const events = historyEvents(d, SEED, { from, to });
    const login = events.find((e) => e.type === 'login')!;
    expect(plannedSessionAt(d, SEED, login.at + 60_000)?.sessionId).toBe(login.sessionId);
    expect(plannedSessionAt(d, SEED, Date.parse('2026-01-10T12:00:00Z'))).toBeNull(); // a Saturday
  });
});
