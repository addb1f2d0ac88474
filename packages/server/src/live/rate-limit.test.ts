import { describe, expect, it } from 'vitest';
import { createMemoryWindowCounter, createTokenBucket } from './rate-limit';

describe('upgrade token bucket', () => {
  it('admits a burst, then the steady rate', () => {
    let now = 0;
    const bucket = createTokenBucket(10, 5, () => now);
    expect(Array.from({ length: 8 }, () => bucket.take())).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    now += 100; // one token per 100 ms at 10/s
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now += 10_000; // refills only up to the burst
    expect(Array.from({ length: 6 }, () => bucket.take()).filter(Boolean)).toHaveLength(5);
  });
});

describe('window counter (failures per address)', () => {
  it('refuses a key once it reached its maximum, until its window ends; other keys are free', async () => {
    let now = 0;
    const counter = createMemoryWindowCounter(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(await counter.blockedFor('203.0.113.9')).toBe(0);
      await counter.hit('203.0.113.9');
    }
    expect(await counter.blockedFor('203.0.113.9')).toBe(60);
    expect(await counter.blockedFor('198.51.100.7')).toBe(0);
    now += 59_000;
    expect(await counter.blockedFor('203.0.113.9')).toBe(1);
    now += 1_000;
    expect(await counter.blockedFor('203.0.113.9')).toBe(0);
  });
});
