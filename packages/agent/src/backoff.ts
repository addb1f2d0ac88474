/**
 * Exponential backoff with full jitter: a random delay between 0 and min(cap, base · 2^attempt),
 * so a fleet that lost the server at the same moment does not come back at the same moment.
 */
export function fullJitterDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
) {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * A Retry-After header (RFC 9110: seconds, or an HTTP date) as milliseconds from `now`; null when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  const v = value?.trim();
  if (!v) {
    return null;
  }
  if (/^\d+$/.test(v)) {
    return Number(v) * 1000;
  }
  // an HTTP date names its day and month ("Mon, 23 Nov 2026 06:00:10 GMT")
  const at = /[a-z]/i.test(v) ? Date.parse(v) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * How long to wait before trying again. When the server said (Retry-After), its time plus up to a
 * second more at random: the header is in whole seconds, and a fleet told "1" all at once must not
 * come back all in the same millisecond. Otherwise exponential backoff with full jitter.
 */
export function retryDelay(
  attempt: number,
  backoff: { baseMs: number; capMs: number },
  retryAfterMs: number | null,
  random: () => number = Math.random,
) {
  if (retryAfterMs !== null) {
    return retryAfterMs + Math.floor(random() * 1000);
  }
  return fullJitterDelay(attempt, backoff.baseMs, backoff.capMs, random);
}
