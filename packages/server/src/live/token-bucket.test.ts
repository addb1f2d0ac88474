import { describe, expect, it } from 'vitest';
import { createTokenBucket } from './rate-limit';

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
