import { wallToInstant, zoneOffsetMs } from './policy-schedule';

// When a device is inside its maintenance windows, as pure functions over instants
// (docs/product/rollouts.md#maintenance-windows, docs/decisions/2026-11-27-maintenance-window-time.md).
// A window is local wall time in an IANA zone: it opens on each of its weekdays at its start time
// and closes at the wall time `duration` later (across midnight into the next day). A start (or
// end) that does not exist (the spring-forward gap) is the moment the gap ends (02:30 in a
// 02:00–03:00 gap opens at 03:00); a wall time that exists twice (the autumn overlap) is the
// first of the two, so a window opens once. Overlapping or touching windows count as one.

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Local days looked at before and after an instant (a window lasts at most a day). */
const DAYS_BEFORE = 2;
const DAYS_AFTER = 9;

export type WindowSpec = {
  /** weekdays, 0 = Sunday */
  days: readonly number[];
  /** minutes after local midnight */
  startMinute: number;
  durationMinutes: number;
  enabled?: boolean;
};

export type WindowState = {
  inside: boolean;
  /** when the window the instant is in closes (touching windows joined), or null outside */
  endsAt: number | null;
  /** the next opening after the instant (after the current window when inside); null: none enabled */
  nextOpensAt: number | null;
};

export type Interval = { opensAt: number; closesAt: number };

/** "HH:MM" → minutes after midnight. */
export function startMinuteOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** minutes after midnight → "HH:MM". */
export function startTimeOf(minute: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
}

/**
 * The instant a local wall time (given as if it were UTC) happens in the zone; in a gap, the
 * moment the gap ends (the first instant whose offset is the one after the change).
 */
export function wallStart(wall: number, timeZone: string): number {
  const at = wallToInstant(wall, timeZone);
  if (at + zoneOffsetMs(at, timeZone) === wall) {
    return at;
  }
  // a gap: between the two readings of the wall time the offset changes; find where, to a second
  const a = wall - zoneOffsetMs(wall - DAY_MS, timeZone);
  const b = wall - zoneOffsetMs(wall + DAY_MS, timeZone);
  let lo = Math.min(a, b);
  let hi = Math.max(a, b);
  const after = zoneOffsetMs(hi, timeZone);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zoneOffsetMs(mid, timeZone) === after) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

const localDateOf = (instant: number, timeZone: string) =>
  Math.floor((instant + zoneOffsetMs(instant, timeZone)) / DAY_MS) * DAY_MS;

/** The enabled windows' openings between `from` and `to` (local days around them), sorted, touching ones joined. */
export function windowIntervals(
  windows: readonly WindowSpec[],
  timeZone: string,
  from: number,
  to: number,
): Interval[] {
  const first = localDateOf(from, timeZone) - DAYS_BEFORE * DAY_MS;
  const last = localDateOf(to, timeZone) + DAY_MS;
  const raw: Interval[] = [];
  for (let date = first; date <= last; date += DAY_MS) {
    const weekday = new Date(date).getUTCDay();
    for (const w of windows) {
      if (w.enabled === false || !w.days.includes(weekday) || w.durationMinutes <= 0) {
        continue;
      }
      const wall = date + w.startMinute * MINUTE_MS;
      const opensAt = wallStart(wall, timeZone);
      const closesAt = wallStart(wall + w.durationMinutes * MINUTE_MS, timeZone);
      if (closesAt > opensAt) {
        raw.push({ opensAt, closesAt });
      }
    }
  }
  raw.sort((x, y) => x.opensAt - y.opensAt);
  const merged: Interval[] = [];
  for (const i of raw) {
    const prev = merged.at(-1);
    if (prev && i.opensAt <= prev.closesAt) {
      prev.closesAt = Math.max(prev.closesAt, i.closesAt);
    } else {
      merged.push({ ...i });
    }
  }
  return merged;
}

/** Whether `at` is inside one of the windows, when that window closes, and when the next one opens. */
export function windowState(windows: readonly WindowSpec[], timeZone: string, at: number): WindowState {
  const intervals = windowIntervals(windows, timeZone, at, at + DAYS_AFTER * DAY_MS);
  const current = intervals.find((i) => i.opensAt <= at && at < i.closesAt) ?? null;
  const next = intervals.find((i) => i.opensAt > at) ?? null;
  return {
    inside: current !== null,
    endsAt: current?.closesAt ?? null,
    nextOpensAt: next?.opensAt ?? null,
  };
}

/** A zone name a runtime knows, or UTC (a site without a zone reads its windows in UTC). */
export const windowZone = (timeZone: string | null | undefined): string => timeZone || 'UTC';

const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "Tue 22:00" — an instant's local weekday and time in the zone. */
export function localWhen(instant: number, timeZone: string): string {
  const wall = new Date(instant + zoneOffsetMs(instant, timeZone));
  return `${SHORT_DAYS[wall.getUTCDay()]} ${startTimeOf(wall.getUTCHours() * 60 + wall.getUTCMinutes())}`;
}

/** "in 3 h", "in 25 min", "in 2 d" — how far an instant is from now. */
export function untilText(instant: number, now: number): string {
  const minutes = Math.max(0, Math.round((instant - now) / MINUTE_MS));
  if (minutes < 60) {
    return `in ${minutes} min`;
  }
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} d`;
}

/** The held row's note: "Waiting for its maintenance window (opens Tue 22:00 Europe/Berlin)". */
export function windowHoldNote(opensAt: number | null, timeZone: string): string {
  return opensAt === null
    ? 'Waiting for its maintenance window (none is enabled)'
    : `Waiting for its maintenance window (opens ${localWhen(opensAt, timeZone)} ${timeZone})`;
}
