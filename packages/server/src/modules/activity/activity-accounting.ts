// Pure activity accounting: no database, no clock. The incremental step the gateway
// applies to each event, and an independent full recomputation from a list of events that the
// property test compares it with, plus the interval arithmetic the chart and the reads share.
//
// The model, all in UTC:
// - online time runs from an accepted online event to the next offline event;
// - a session runs from its login to its logout, or to the offline event that closes it (the
//   recorder writes a logout for each session still open just before the offline event);
// - logged-in time is the union of the sessions: time with at least one user signed in, so two
//   users signed in together count once; sessions only run while the device is online, so
//   logged-in time never exceeds online time and utilisation is at most 100 %;
// - a day's session count is the distinct sessions that signed in that day (a session resumed
//   after a reconnect on the same day counts once);
// - an interval that crosses midnight is split between the two days.
// Events that change nothing (a second login of an open session, a logout of a session that is
// not open, a login while offline, online while online, offline while offline) are not accepted.

export type ActivityKind = 'online' | 'offline' | 'login' | 'logout';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export type AccountingEvent = {
  type: ActivityKind;
  /** effective time, ms since the epoch (see effectiveTime) */
  at: number;
  sessionId?: string | null;
  userName?: string | null;
  ipAddress?: string | null;
};

export type OpenSession = { sessionId: string; userName: string; ipAddress: string | null; since: number };

export type AccountingState = {
  onlineSince: number | null;
  loggedInSince: number | null;
  sessions: OpenSession[];
  lastEventAt: number | null;
  countedDay: string | null;
  countedSessions: string[];
};

export type DayTotals = { onlineMs: number; loggedInMs: number; sessions: number };
export type DayDelta = DayTotals & { day: string };

export const emptyState = (): AccountingState => ({
  onlineSince: null,
  loggedInSince: null,
  sessions: [],
  lastEventAt: null,
  countedDay: null,
  countedSessions: [],
});

/** The UTC date (YYYY-MM-DD) of a time. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** Midnight UTC starting that time's day. */
export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The time an event counts at: never later than when the server received it (an agent clock
 * ahead is not trusted with the future) and never before the device's previous event (so
 * intervals never run backwards when an agent's clock is behind or messages arrive late).
 */
export function effectiveTime(reported: number, receivedAt: number, lastEventAt: number | null): number {
  const t = Math.min(reported, receivedAt);
  return lastEventAt === null ? t : Math.max(t, lastEventAt);
}

/** [start, end) split at UTC midnights: the milliseconds of each day it touches. */
export function splitByUtcDay(start: number, end: number): { day: string; ms: number }[] {
  const out: { day: string; ms: number }[] = [];
  let t = start;
  while (t < end) {
    const next = Math.min(end, dayStart(t) + DAY_MS);
    out.push({ day: utcDay(t), ms: next - t });
    t = next;
  }
  return out;
}

/** Adds one delta into a per-day map. */
function addTo(map: Map<string, DayTotals>, day: string, d: Partial<DayTotals>) {
  const cur = map.get(day) ?? { onlineMs: 0, loggedInMs: 0, sessions: 0 };
  cur.onlineMs += d.onlineMs ?? 0;
  cur.loggedInMs += d.loggedInMs ?? 0;
  cur.sessions += d.sessions ?? 0;
  map.set(day, cur);
}

export function toDeltas(map: Map<string, DayTotals>): DayDelta[] {
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, t]) => ({ day, ...t }));
}

export type StepResult = { state: AccountingState; accepted: boolean; deltas: DayDelta[] };

/** Applies one event (at its effective time) to a device's state: the incremental rollup update. */
export function applyEvent(state: AccountingState, event: AccountingEvent): StepResult {
  const at = event.at;
  const deltas = new Map<string, DayTotals>();
  const next: AccountingState = { ...state, sessions: [...state.sessions], lastEventAt: at };
  const closeLoggedIn = () => {
    if (next.loggedInSince !== null) {
      for (const p of splitByUtcDay(next.loggedInSince, at)) {
        addTo(deltas, p.day, { loggedInMs: p.ms });
      }
      next.loggedInSince = null;
    }
  };
  let accepted = false;
  switch (event.type) {
    case 'online':
      if (next.onlineSince === null) {
        next.onlineSince = at;
        accepted = true;
      }
      break;
    case 'offline':
      if (next.onlineSince !== null) {
        closeLoggedIn();
        next.sessions = [];
        for (const p of splitByUtcDay(next.onlineSince, at)) {
          addTo(deltas, p.day, { onlineMs: p.ms });
        }
        next.onlineSince = null;
        accepted = true;
      }
      break;
    case 'login': {
      const sid = event.sessionId ?? '';
      if (next.onlineSince !== null && sid && !next.sessions.some((s) => s.sessionId === sid)) {
        next.sessions.push({
          sessionId: sid,
          userName: event.userName ?? '',
          ipAddress: event.ipAddress ?? null,
          since: at,
        });
        next.loggedInSince ??= at;
        const day = utcDay(at);
        if (next.countedDay !== day) {
          next.countedDay = day;
          next.countedSessions = [];
        }
        if (!next.countedSessions.includes(sid)) {
          next.countedSessions = [...next.countedSessions, sid];
          addTo(deltas, day, { sessions: 1 });
        }
        accepted = true;
      }
      break;
    }
    case 'logout': {
      const sid = event.sessionId ?? '';
      const i = next.sessions.findIndex((s) => s.sessionId === sid);
      if (i >= 0) {
        next.sessions.splice(i, 1);
        if (next.sessions.length === 0) {
          closeLoggedIn();
        }
        accepted = true;
      }
      break;
    }
  }
  return accepted ? { state: next, accepted, deltas: toDeltas(deltas) } : { state, accepted, deltas: [] };
}

// ---------- intervals: the full recomputation, the chart and "today" ----------

export type Interval = { start: number; end: number };
export type SessionInterval = Interval & { sessionId: string; userName: string };

export type Timeline = {
  online: Interval[];
  sessions: SessionInterval[];
  /** the session ids of accepted logins with the day they signed in */
  logins: { day: string; sessionId: string }[];
};

/**
 * Rebuilds a device's online periods and sessions from its events (in arrival order, at their
 * effective times). Intervals still open end at `now`. Independent of applyEvent: it pairs
 * events into intervals instead of carrying counters.
 */
export function timeline(events: readonly AccountingEvent[], now: number): Timeline {
  const online: Interval[] = [];
  const sessions: SessionInterval[] = [];
  const logins: { day: string; sessionId: string }[] = [];
  let onlineFrom: number | null = null;
  const open = new Map<string, { start: number; userName: string }>();
  for (const e of events) {
    if (e.type === 'online' && onlineFrom === null) {
      onlineFrom = e.at;
    } else if (e.type === 'offline' && onlineFrom !== null) {
      online.push({ start: onlineFrom, end: e.at });
      for (const [sessionId, s] of open) {
        sessions.push({ sessionId, userName: s.userName, start: s.start, end: e.at });
      }
      open.clear();
      onlineFrom = null;
    } else if (e.type === 'login' && onlineFrom !== null && e.sessionId && !open.has(e.sessionId)) {
      open.set(e.sessionId, { start: e.at, userName: e.userName ?? '' });
      logins.push({ day: utcDay(e.at), sessionId: e.sessionId });
    } else if (e.type === 'logout' && e.sessionId && open.has(e.sessionId)) {
      const s = open.get(e.sessionId)!;
      sessions.push({ sessionId: e.sessionId, userName: s.userName, start: s.start, end: e.at });
      open.delete(e.sessionId);
    }
  }
  if (onlineFrom !== null) {
    online.push({ start: onlineFrom, end: Math.max(onlineFrom, now) });
  }
  for (const [sessionId, s] of open) {
    sessions.push({ sessionId, userName: s.userName, start: s.start, end: Math.max(s.start, now) });
  }
  sessions.sort((a, b) => a.start - b.start || a.end - b.end);
  return { online, sessions, logins };
}

/** The union of intervals, merged and sorted. */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) {
      last.end = Math.max(last.end, i.end);
    } else {
      out.push({ start: i.start, end: i.end });
    }
  }
  return out;
}

/** Milliseconds of [a, b) covered by the intervals (which must not overlap; see union). */
export function overlapMs(intervals: readonly Interval[], a: number, b: number): number {
  let ms = 0;
  for (const i of intervals) {
    ms += Math.max(0, Math.min(i.end, b) - Math.max(i.start, a));
  }
  return ms;
}

/** Per-day totals recomputed from a whole timeline (its open intervals end where the timeline ended them). */
export function dailyTotals(t: Timeline): Map<string, DayTotals> {
  const map = new Map<string, DayTotals>();
  for (const i of union(t.online)) {
    for (const p of splitByUtcDay(i.start, i.end)) {
      addTo(map, p.day, { onlineMs: p.ms });
    }
  }
  for (const i of union(t.sessions)) {
    for (const p of splitByUtcDay(i.start, i.end)) {
      addTo(map, p.day, { loggedInMs: p.ms });
    }
  }
  const distinct = new Set(t.logins.map((l) => `${l.day}\u0000${l.sessionId}`));
  for (const key of distinct) {
    addTo(map, key.slice(0, 10), { sessions: 1 });
  }
  return map;
}

/** Rollups plus the still-open intervals of the state, up to `now`: what a read reports. */
export function withOpenIntervals(
  closed: ReadonlyMap<string, DayTotals>,
  open: { onlineSince: number | null; loggedInSince: number | null },
  now: number,
): Map<string, DayTotals> {
  const map = new Map<string, DayTotals>();
  for (const [day, t] of closed) {
    map.set(day, { ...t });
  }
  if (open.onlineSince !== null) {
    for (const p of splitByUtcDay(open.onlineSince, now)) {
      addTo(map, p.day, { onlineMs: p.ms });
    }
  }
  if (open.loggedInSince !== null) {
    for (const p of splitByUtcDay(open.loggedInSince, now)) {
      addTo(map, p.day, { loggedInMs: p.ms });
    }
  }
  return map;
}

/** Milliseconds of an interval open since `since` that fall in [from, now). */
export const openPart = (since: number | null, from: number, now: number): number =>
  since === null ? 0 : Math.max(0, now - Math.max(since, from));

/** Logged-in over online time as a percentage, one decimal; 0 without online time. */
export function utilisation(loggedInMs: number, onlineMs: number): number {
  if (onlineMs <= 0) {
    return 0;
  }
  return Math.round(Math.min(100, (loggedInMs / onlineMs) * 100) * 10) / 10;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export type HourSlot = {
  hour_slot: string;
  online_percentage: number;
  login_minutes: number;
  sessions: { user: string; start_offset: number; duration: number }[];
  is_current: boolean;
};

/**
 * `count` hourly slots ending with the current hour (UTC), oldest first. A slot's percentages
 * are of the time it has had: the current slot counts up to now.
 */
export function hourlySlots(t: Timeline, now: number, count: number): HourSlot[] {
  const current = Math.floor(now / HOUR_MS) * HOUR_MS;
  const online = union(t.online);
  const loggedIn = union(t.sessions);
  const slots: HourSlot[] = [];
  for (let k = count - 1; k >= 0; k--) {
    const a = current - k * HOUR_MS;
    const b = Math.min(a + HOUR_MS, now);
    const span = b - a;
    const sessions = t.sessions
      .filter((s) => s.end > a && s.start < b)
      .map((s) => {
        const from = Math.max(s.start, a);
        return {
          user: s.userName,
          start_offset: round1((from - a) / 60_000),
          duration: round1((Math.min(s.end, b) - from) / 60_000),
        };
      });
    slots.push({
      hour_slot: new Date(a).toISOString(),
      online_percentage: span > 0 ? round1(Math.min(100, (overlapMs(online, a, b) / span) * 100)) : 0,
      login_minutes: round1(overlapMs(loggedIn, a, b) / 60_000),
      sessions,
      is_current: k === 0,
    });
  }
  return slots;
}

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The last `days` UTC days, oldest first, today last, from per-day totals. */
export function weeklyRows(totals: ReadonlyMap<string, DayTotals>, now: number, days: number) {
  const today = dayStart(now);
  const rows = [];
  for (let k = days - 1; k >= 0; k--) {
    const start = today - k * DAY_MS;
    const day = utcDay(start);
    const t = totals.get(day);
    rows.push({
      day_name: DAY_NAMES[new Date(start).getUTCDay()]!,
      activity_date: day,
      total_sessions: t?.sessions ?? 0,
      total_login_hours: Math.round(((t?.loggedInMs ?? 0) / HOUR_MS) * 100) / 100,
    });
  }
  return rows;
}
