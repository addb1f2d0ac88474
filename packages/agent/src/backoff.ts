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
