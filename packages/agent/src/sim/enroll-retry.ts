import { parseRetryAfter, retryDelay } from '../backoff';
import type { Logger } from '../connection';
import type { EnrollError } from '../enroll';

// Enrolment as the simulator does it for many machines at once: it never gives up on a rate limit
// or an unavailable server. A 429 (or 503) with Retry-After waits the server's time plus up to a
// second at random; without one, and on network errors and 5xx, exponential backoff with full
// jitter. Only a refusal retrying cannot change (400, 401 unknown or revoked token, 403 the
// tenant's max_agents) ends it.

export type EnrollRetryOptions = {
  backoff?: { baseMs: number; capMs: number };
  log?: Logger;
  /** what is being enrolled, for the log */
  label?: string;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** stop retrying (the fleet is stopping) */
  signal?: AbortSignal;
};

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** true when another attempt may succeed: rate limits, server errors and the network */
export function isRetryable(err: unknown): boolean {
  const status = (err as Partial<EnrollError>).status;
  return status === undefined || status === 429 || status === 408 || status >= 500;
}

export async function enrollWithRetry<T>(attemptOnce: () => Promise<T>, options: EnrollRetryOptions = {}) {
  const backoff = options.backoff ?? { baseMs: 500, capMs: 30_000 };
  const sleep = options.sleep ?? sleeper;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce();
    } catch (err) {
      if (!isRetryable(err) || options.signal?.aborted) {
        throw err;
      }
      const retryAfterMs = parseRetryAfter((err as Partial<EnrollError>).retryAfter);
      const delay = retryDelay(attempt, backoff, retryAfterMs, options.random);
      // every tenth attempt is logged: a rate limit is expected, not an error
      if (attempt % 10 === 0) {
        options.log?.warn(`enrolment${options.label ? ` of ${options.label}` : ''} refused; retrying`, {
          err: String(err),
          attempt: attempt + 1,
          delayMs: delay,
        });
      }
      await sleep(delay);
    }
  }
}
