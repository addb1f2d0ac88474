import { describe, expect, it } from 'vitest';
import { fullJitterDelay, parseRetryAfter, retryDelay } from './backoff';

describe('exponential backoff with full jitter', () => {
  it('stays between 0 and min(cap, base·2^attempt)', () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(60_000, 1000 * 2 ** attempt);
      expect(fullJitterDelay(attempt, 1000, 60_000, () => 0)).toBe(0);
      expect(fullJitterDelay(attempt, 1000, 60_000, () => 0.999999)).toBeLessThan(ceiling);
      expect(fullJitterDelay(attempt, 1000, 60_000, () => 0.999999)).toBeGreaterThan(ceiling * 0.99);
    }
  });

  it('spreads a fleet that lost the server at the same moment', () => {
    const delays = Array.from({ length: 1000 }, () => fullJitterDelay(6, 1000, 60_000));
    const distinct = new Set(delays.map((d) => Math.floor(d / 1000)));
    expect(distinct.size).toBeGreaterThan(50);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 23 Nov 2026 06:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 05:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });

  it("waits the server's time plus up to a second, whatever the attempt; backoff without one", () => {
    for (const attempt of [0, 5, 30]) {
      expect(retryDelay(attempt, { baseMs: 500, capMs: 30_000 }, 4000, () => 0)).toBe(4000);
      expect(retryDelay(attempt, { baseMs: 500, capMs: 30_000 }, 4000, () => 0.9999)).toBe(4999);
    }
    expect(retryDelay(3, { baseMs: 500, capMs: 30_000 }, null, () => 0.5)).toBe(2000);
  });

  it('spreads a fleet told the same Retry-After over the following second', () => {
    const delays = Array.from({ length: 1000 }, () => retryDelay(0, { baseMs: 500, capMs: 30_000 }, 1000));
    const tenths = new Set(delays.map((d) => Math.floor(d / 100)));
    expect(tenths).toEqual(new Set([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]));
  });
});
