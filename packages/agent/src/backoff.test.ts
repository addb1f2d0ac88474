import { describe, expect, it } from 'vitest';
import { fullJitterDelay } from './backoff';

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
