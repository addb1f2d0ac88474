import { createHash } from 'node:crypto';
import { createRng } from './rng';

// Working-day patterns for simulated devices: when a machine is switched on and when
// someone is signed in, in the local time of its site. Seed-determined per device and per day, so
// the live simulator and the demo's back-filled history follow the same plan.
//
// Profiles, by device index (index % 10), chosen so every utilisation band has machines:
//   0–2 office: on 07:45–17:30 on weekdays, signed in 08:00–17:15 with lunch (≈ 85 %, high)
//   3–4 late office: on 07:30–19:30, signed in 08:30–17:00 with lunch (≈ 60–70 %, good)
//   5–6 shared: on 07:00–19:00, short sessions of several users, sometimes two at once (≈ 50 %)
//   7   server: always on (a weekly reboot), an administrator now and then (low)
//   8   rarely used: on for a few hours on a couple of days a week (low, varies)
//   9   left on: always on, signed in during office hours on weekdays (≈ 25–30 %, low)

export type WorkProfile = 'office' | 'late-office' | 'shared' | 'server' | 'rare' | 'left-on';

export function workProfileOf(index: number): WorkProfile {
  const k = index % 10;
  if (k <= 2) {
    return 'office';
  }
  if (k <= 4) {
    return 'late-office';
  }
  if (k <= 6) {
    return 'shared';
  }
  return k === 7 ? 'server' : k === 8 ? 'rare' : 'left-on';
}

const MIN = 60_000;
const DAY_MIN = 1440;

/**
 * A session id as Windows and macOS logs show them: unique from its first characters (the
 * portal shows the first 8), and the same for the same seed text, so a plan replays.
 */
export function simSessionId(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export type PlannedSession = { sessionId: string; userName: string; start: number; end: number };
export type DayPlan = { online: { start: number; end: number }[]; sessions: PlannedSession[] };

export type WorkdayDevice = {
  index: number;
  users: string[];
  domain: string;
  machineId: string;
  timeZone: string;
};

// ---------- local time ----------

const formats = new Map<string, Intl.DateTimeFormat>();
function format(timeZone: string) {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The wall clock in the zone: date, minutes since local midnight. */
export function localClock(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    format(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const y = Number(parts.year);
  const m = Number(parts.month);
  const d = Number(parts.day);
  const minutes = Number(parts.hour) * 60 + Number(parts.minute);
  return { y, m, d, minutes, weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay() };
}

/** UTC time of a local wall-clock time (minutes may run past 1440 into the next day). */
export function zonedTime(y: number, m: number, d: number, minutes: number, timeZone: string): number {
  const wall = Date.UTC(y, m - 1, d) + minutes * MIN;
  const offset = (at: number) => {
    const c = localClock(at, timeZone);
    return Date.UTC(c.y, c.m - 1, c.d) + c.minutes * MIN - Math.floor(at / MIN) * MIN;
  };
  let t = wall - offset(wall);
  const again = offset(t);
  if (wall - again !== t) {
    t = wall - again;
  }
  return t;
}

// ---------- the plan of one local day ----------

const dayKey = (y: number, m: number, d: number) => y * 10_000 + m * 100 + d;

/** What a device does on one local day, in minutes from local midnight. */
export function dayPlan(
  device: WorkdayDevice,
  seed: number,
  date: { y: number; m: number; d: number; weekday: number },
): DayPlan {
  const key = dayKey(date.y, date.m, date.d);
  const rng = createRng((seed * 7919 + device.index * 104_729 + key) >>> 0);
  const weekend = date.weekday === 0 || date.weekday === 6;
  const user = (i = 0) => `${device.domain}\\${device.users[i % device.users.length] ?? 'user'}`;
  const sid = (k: number) => simSessionId(`${device.machineId}-${key}-${k}`);
  const jitter = (spread: number) => rng.int(-spread, spread);
  const sessions: PlannedSession[] = [];
  const add = (start: number, end: number, who = user()) => {
    if (end > start) {
      sessions.push({ sessionId: sid(sessions.length), userName: who, start, end });
    }
  };
  const profile = workProfileOf(device.index);
  switch (profile) {
    case 'office':
    case 'late-office': {
      if (weekend || rng.chance(0.06)) {
        return { online: [], sessions: [] }; // a weekend or a day off: off all day
      }
      const late = profile === 'late-office';
      const on = (late ? 450 : 465) + jitter(15);
      const off = (late ? 1170 : 1050) + jitter(30);
      const lunch = 720 + jitter(20);
      add((late ? 510 : 480) + jitter(10), lunch);
      add(lunch + (late ? 60 : 40) + jitter(10), Math.min(off - 5, (late ? 1050 : 1035) + jitter(15)));
      return { online: [{ start: on, end: off }], sessions };
    }
    case 'shared': {
      if (weekend) {
        return { online: [], sessions: [] };
      }
      const on = 420 + jitter(10);
      const off = 1140 + jitter(20);
      let t = 480 + jitter(15);
      for (let i = 0; t < off - 60; i++) {
        const len = rng.int(60, 150);
        add(t, Math.min(t + len, off - 10), user(i));
        t += len + rng.int(45, 120);
      }
      if (rng.chance(0.4)) {
        // a second user signs in remotely while someone is at the machine
        const start = 900 + jitter(30);
        add(start, start + rng.int(20, 50), user(1) === user(0) ? `${device.domain}\\helpdesk` : user(1));
      }
      return { online: [{ start: on, end: off }], sessions };
    }
    case 'server': {
      const online = [{ start: 0, end: DAY_MIN }];
      if (date.weekday === 0) {
        // the weekly reboot after patching
        online.splice(0, 1, { start: 0, end: 180 }, { start: 186, end: DAY_MIN });
      }
      if (!weekend && rng.chance(0.35)) {
        const start = rng.int(540, 960);
        add(start, start + rng.int(15, 60), `${device.domain}\\administrator`);
      }
      return { online, sessions };
    }
    case 'rare': {
      if (weekend || !rng.chance(0.35)) {
        return { online: [], sessions: [] };
      }
      const on = rng.int(540, 840);
      const off = on + rng.int(120, 240);
      const start = on + rng.int(5, 30);
      add(start, start + rng.int(30, 90));
      return { online: [{ start: on, end: off }], sessions };
    }
    case 'left-on': {
      if (!weekend) {
        const lunch = 720 + jitter(20);
        add(510 + jitter(15), lunch);
        add(lunch + 45, 1050 + jitter(20));
      }
      return { online: [{ start: 0, end: DAY_MIN }], sessions };
    }
  }
}

// ---------- live: who should be signed in now ----------

/** The planned session running at `now` on the device's local day, if any. */
export function plannedSessionAt(device: WorkdayDevice, seed: number, now: number): PlannedSession | null {
  const c = localClock(now, device.timeZone);
  const plan = dayPlan(device, seed, c);
  return plan.sessions.find((s) => s.start <= c.minutes && c.minutes < s.end) ?? null;
}

// ---------- history: events of a span of days ----------

export type HistoryEvent = {
  type: 'online' | 'offline' | 'login' | 'logout';
  at: number;
  sessionId?: string;
  userName?: string;
  ipAddress?: string | null;
};

const ORDER = { online: 0, logout: 1, login: 2, offline: 3 } as const;

/**
 * The device's events in [from, to) by its plan: online periods (days that run into each other
 * stay one period), the sessions inside them, and the device off (no session open) at `to`.
 */
export function historyEvents(
  device: WorkdayDevice,
  seed: number,
  span: { from: number; to: number },
  ipAddress: string | null = null,
): HistoryEvent[] {
  const online: { start: number; end: number }[] = [];
  const sessions: PlannedSession[] = [];
  // local days from the one before `from` (an always-on machine was already on) to `to`'s
  for (let t = span.from - 86_400_000; t < span.to + 86_400_000; t += 86_400_000) {
    const c = localClock(t, device.timeZone);
    const plan = dayPlan(device, seed, c);
    const at = (minutes: number) => zonedTime(c.y, c.m, c.d, minutes, device.timeZone);
    for (const o of plan.online) {
      online.push({ start: at(o.start), end: at(o.end) });
    }
    for (const s of plan.sessions) {
      sessions.push({ ...s, start: at(s.start), end: at(s.end) });
    }
  }
  // merge, clip to the span
  online.sort((a, b) => a.start - b.start);
  const periods: { start: number; end: number }[] = [];
  for (const o of online) {
    const start = Math.max(o.start, span.from);
    const end = Math.min(o.end, span.to);
    if (end <= start) {
      continue;
    }
    const last = periods[periods.length - 1];
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
    } else {
      periods.push({ start, end });
    }
  }
  const events: HistoryEvent[] = [];
  const seen = new Set<string>();
  for (const p of periods) {
    events.push({ type: 'online', at: p.start, ipAddress }, { type: 'offline', at: p.end });
    for (const s of sessions) {
      const start = Math.max(s.start, p.start);
      const end = Math.min(s.end, p.end);
      if (end <= start || seen.has(s.sessionId)) {
        continue;
      }
      seen.add(s.sessionId);
      const who = { sessionId: s.sessionId, userName: s.userName, ipAddress };
      events.push({ type: 'login', at: start, ...who }, { type: 'logout', at: end, ...who });
    }
  }
  return events.sort((a, b) => a.at - b.at || ORDER[a.type] - ORDER[b.type]);
}
