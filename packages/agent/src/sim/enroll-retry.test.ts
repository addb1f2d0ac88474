import { describe, expect, it } from 'vitest';
import { enrollWithRetry, isRetryable } from './enroll-retry';

const refusal = (status: number | undefined, retryAfter: string | null = null) =>
  Object.assign(new Error(`HTTP ${status}`), { status, retryAfter });

describe('simulator enrolment retries', () => {
  it('never gives up on 429: waits Retry-After plus up to a second each time, then succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await enrollWithRetry(
      () => {
        calls++;
        if (calls <= 20) {
          return Promise.reject(refusal(429, '3'));
        }
        return Promise.resolve('enrolled');
      },
      { sleep: (ms) => (waits.push(ms), Promise.resolve()), random: () => 0.5 },
    );
    expect(result).toBe('enrolled');
    expect(calls).toBe(21);
    expect(waits).toEqual(Array.from({ length: 20 }, () => 3500));
  });

  it('backs off exponentially with full jitter on network errors and 5xx without Retry-After', async () => {
    const waits: number[] = [];
    const failures = [refusal(undefined), refusal(502), refusal(503), refusal(500), refusal(429)];
    const result = await enrollWithRetry(
      () => {
        const next = failures.shift();
        return next ? Promise.reject(next) : Promise.resolve(7);
      },
      {
        backoff: { baseMs: 100, capMs: 1000 },
        sleep: (ms) => (waits.push(ms), Promise.resolve()),
        random: () => 0.99,
      },
    );
    expect(result).toBe(7);
    // 0.99 of min(cap, 100·2^attempt)
    expect(waits).toEqual([99, 198, 396, 792, 990]);
  });

  it('stops at once on a refusal retrying cannot change', async () => {
    for (const status of [400, 401, 403]) {
      let calls = 0;
      await expect(
        enrollWithRetry(
          () => {
            calls++;
            return Promise.reject(refusal(status));
          },
          { sleep: () => Promise.resolve() },
        ),
      ).rejects.toThrow(`HTTP ${status}`);
      expect(calls).toBe(1);
      expect(isRetryable(refusal(status))).toBe(false);
    }
  });

  it('stops retrying once the fleet is stopping', async () => {
    const stop = new AbortController();
    let calls = 0;
    await expect(
      enrollWithRetry(
        () => {
          calls++;
          if (calls === 3) {
            stop.abort();
          }
          return Promise.reject(refusal(429, '1'));
        },
        { sleep: () => Promise.resolve(), signal: stop.signal },
      ),
    ).rejects.toThrow('HTTP 429');
    expect(calls).toBe(3);
  });
});
