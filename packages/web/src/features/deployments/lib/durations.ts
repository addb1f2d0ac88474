// docs/product/deployments.md#job-statuses — job durations in whole minutes (under a minute in whole seconds, so a job
// that ran for seconds does not read '0 min'); step durations in seconds with one decimal.
// Timestamps without a zone are UTC (docs/product/devices.md#lists).

const time = (value: string | null | undefined): number | null => {
  if (!value) {
    return null;
  }
  const s = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : t;
};

/** Whole minutes from start to end (or to now while still running); null before it started. */
export function durationMinutes(
  startedAt: string | null | undefined,
  completedAt: string | null | undefined,
  now = Date.now(),
): number | null {
  const start = time(startedAt);
  if (start === null) {
    return null;
  }
  const end = time(completedAt) ?? now;
  return Math.max(0, Math.round((end - start) / 60_000));
}

/** A job's or a device's duration: '42 s' under a minute, else whole minutes; '—' before it started. */
export function formatJobDuration(
  startedAt: string | null | undefined,
  completedAt: string | null | undefined,
  now = Date.now(),
): string {
  const start = time(startedAt);
  if (start === null) {
    return '—';
  }
  const seconds = Math.max(0, Math.round(((time(completedAt) ?? now) - start) / 1000));
  return seconds < 60 ? `${seconds} s` : formatMinutes(durationMinutes(startedAt, completedAt, now));
}

export function formatMinutes(minutes: number | null): string {
  if (minutes === null) {
    return '—';
  }
  return `${minutes} min`;
}

/** A step's duration in seconds with one decimal ('12.3 s'). */
export function formatStepDuration(durationMs: number | null | undefined): string {
  if (durationMs === null || durationMs === undefined) {
    return '—';
  }
  return `${(durationMs / 1000).toFixed(1)} s`;
}
