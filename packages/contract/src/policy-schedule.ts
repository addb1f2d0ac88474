import type { PolicySchedule } from './policies';

// When a scheduled policy runs, as pure functions over instants (docs/product/device-sets.md#automation-policies,
// docs/decisions/2026-11-26-policy-schedules.md). Local times are read in an IANA time zone with
// the Intl API; a local time that does not exist (the spring-forward gap) runs as many minutes
// after the gap as it lay inside it (02:30 in a 02:00–03:00 gap runs at 03:30), and a local time
// that exists twice (the autumn overlap) runs once, at the first of the two instants. This is
// Temporal's "compatible" disambiguation.

const DAY_MS = 86_400_000;
/** How many local days either way an occurrence is looked for (a monthly schedule recurs within 31). */
const SEARCH_DAYS = 62;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether the text names a time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

type LocalParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function localParts(instant: number, timeZone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') {
      out[p.type] = Number(p.value);
    }
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in ms (local = utc + offset). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant a local wall-clock time (given as if it were UTC, `wall`) happens in the zone. A
 * time in a gap is moved forward by the gap's length; a time that happens twice is the earlier.
 */
export function wallToInstant(wall: number, timeZone: string): number {
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  const candidates = [wall - before, wall - after].filter((c) => zoneOffsetMs(c, timeZone) === wall - c);
  if (candidates.length === 0) {
    // in the gap: the offset before the change puts it as far past the gap as it lay inside it
    return wall - before;
  }
  return Math.min(...candidates);
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether the schedule runs on a local date (month 1–12). */
export function runsOn(schedule: PolicySchedule, year: number, month: number, day: number): boolean {
  switch (schedule.frequency) {
    case 'daily':
      return true;
    case 'weekly':
      return schedule.weekdays.includes(new Date(Date.UTC(year, month - 1, day)).getUTCDay());
    case 'monthly':
      return schedule.day_of_month === 'last'
        ? day === daysInMonth(year, month)
        : day === schedule.day_of_month;
  }
}

/** The occurrence on a local date (as a UTC midnight of that date), or null when it does not run. */
function occurrenceOn(schedule: PolicySchedule, dateUtc: number, timeZone: string): number | null {
  const d = new Date(dateUtc);
  if (!runsOn(schedule, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())) {
    return null;
  }
  const [h, m] = schedule.time.split(':').map(Number) as [number, number];
  return wallToInstant(dateUtc + h * 3_600_000 + m * 60_000, timeZone);
}

function localDateOf(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day);
}

/** The first occurrence strictly after `after` (ms), in the zone; null when none within two months. */
export function nextOccurrence(schedule: PolicySchedule, timeZone: string, after: number): number | null {
  const start = localDateOf(after, timeZone) - DAY_MS;
  for (let i = 0; i <= SEARCH_DAYS; i++) {
    const at = occurrenceOn(schedule, start + i * DAY_MS, timeZone);
    if (at !== null && at > after) {
      return at;
    }
  }
  return null;
}

/** The last occurrence at or before `at` (ms), in the zone; null when none within two months. */
export function previousOccurrence(schedule: PolicySchedule, timeZone: string, at: number): number | null {
  const start = localDateOf(at, timeZone) + DAY_MS;
  for (let i = 0; i <= SEARCH_DAYS; i++) {
    const when = occurrenceOn(schedule, start - i * DAY_MS, timeZone);
    if (when !== null && when <= at) {
      return when;
    }
  }
  return null;
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function ordinal(n: number): string {
  const s =
    n % 10 === 1 && n !== 11
      ? 'st'
      : n % 10 === 2 && n !== 12
        ? 'nd'
        : n % 10 === 3 && n !== 13
          ? 'rd'
          : 'th';
  return `${n}${s}`;
}

/** The schedule in words: "Every Monday and Thursday at 02:30 (each site's local time)". */
export function describeSchedule(schedule: PolicySchedule): string {
  const at = `at ${schedule.time}`;
  switch (schedule.frequency) {
    case 'daily':
      return `Every day ${at}`;
    case 'weekly': {
      if (schedule.weekdays.length === 7) {
        return `Every day ${at}`;
      }
      const names = schedule.weekdays.map((d) => WEEKDAY_NAMES[d] ?? String(d));
      const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
      return `Every ${list} ${at}`;
    }
    case 'monthly':
      return schedule.day_of_month === 'last'
        ? `On the last day of every month ${at}`
        : `On the ${ordinal(schedule.day_of_month)} of every month ${at}`;
  }
}
