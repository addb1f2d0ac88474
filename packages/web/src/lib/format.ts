// Formatting helpers shared by every screen. Timestamps are treated as UTC (docs/product/devices.md#lists).

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') {
    return null;
  }
  if (value instanceof Date) {
    return value;
  }
  // A timestamp without zone from the server is UTC.
  const s = typeof value === 'string' && !/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? `${value}Z` : value;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A server time this little ahead of the browser's clock is "now" (the clocks differ slightly). */
const CLOCK_SKEW_MS = 5000;

/**
 * docs/product/devices.md#lists — 'Just now', N minutes, hours or days ago, or 'Never'; a time still to come
 * (a scheduled job) reads 'in N minutes', 'in N hours' or 'in N days', never 'Just now'.
 */
export function relativeTime(value: string | Date | null | undefined, now = Date.now()): string {
  const d = toDate(value);
  if (!d) {
    return 'Never';
  }
  const ms = now - d.getTime();
  if (ms < -CLOCK_SKEW_MS) {
    return -ms < 60_000 ? 'in under a minute' : `in ${span(Math.round(-ms / 60_000))}`;
  }
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return minutes < 1 ? 'Just now' : `${span(minutes)} ago`;
}

/** Whole minutes as minutes, hours or days (the largest that fits), counted down. */
function span(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 60) {
    return plural(minutes, 'minute');
  }
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? plural(hours, 'hour') : plural(Math.floor(hours / 24), 'day');
}

/** docs/product/administration.md#admin-lists — users and sites lists: Today, Yesterday, days, weeks, months. */
export function relativeDay(value: string | Date | null | undefined, now = Date.now()): string {
  const d = toDate(value);
  if (!d) {
    return 'Never';
  }
  const days = Math.floor((now - d.getTime()) / 86_400_000);
  if (days < 1) {
    return 'Today';
  }
  if (days < 2) {
    return 'Yesterday';
  }
  if (days < 7) {
    return `${days} days ago`;
  }
  if (days < 30) {
    const weeks = Math.floor(days / 7);
    return `${weeks} week${weeks === 1 ? '' : 's'} ago`;
  }
  const months = Math.floor(days / 30);
  return `${months} month${months === 1 ? '' : 's'} ago`;
}

// One formatter each, made on first use: toLocaleString with options builds a new one on every
// call, a millisecond each on a slow phone, and a list draws one a row (bench/browser-storm.ts).
let dateFormat: Intl.DateTimeFormat | null = null;
let dateTimeFormat: Intl.DateTimeFormat | null = null;

export function formatDate(value: string | Date | null | undefined): string {
  const d = toDate(value);
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return d ? dateFormat.format(d) : '—';
}

export function formatDateTime(value: string | Date | null | undefined): string {
  const d = toDate(value);
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return d ? dateTimeFormat.format(d) : '—';
}

export const bytesToGb = (bytes: number) => bytes / 1024 ** 3;
export const formatGb = (bytes: number, digits = 1) => `${bytesToGb(bytes).toFixed(digits)} GB`;
export const formatMb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(2)} MB`;

export function initials(name: string | null | undefined, email: string | null | undefined): string {
  const n = name?.trim();
  if (n) {
    const parts = n.split(/\s+/);
    return (
      (parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
    ).toUpperCase();
  }
  return (email?.trim()[0] ?? '?').toUpperCase();
}
