import { describe, expect, it } from 'vitest';
import { TokenBucket, createMemoryBucket, createMemoryWindowCounter } from './rate-limit';

describe('upgrade token bucket', () => {
  it('admits a burst, then the steady rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 5, { now: () => now });
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

describe('upgrade budget with places in line', () => {
  it('admits the burst, then gives each refused caller its own time, one interval apart', async () => {
    let now = 1_000_000;
    const budget = createMemoryBucket(10, 3, () => now);
    const first = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => budget.take(k)));
    expect(first.map((x) => x.isAllowed)).toEqual([true, true, true, false, false, false]);
    // d, e and f are given 100, 200 and 300 ms from now: Retry-After in whole seconds
    expect(first.slice(3).map((x) => x.retryAfterSeconds)).toEqual([1, 1, 1]);
    now += 150;
    // d's time has come: admitted without taking anything more; e's has not
    expect(await budget.take('d')).toEqual({ isAllowed: true, retryAfterSeconds: 1 });
    expect((await budget.take('e')).isAllowed).toBe(false);
    now += 200;
    expect((await budget.take('e')).isAllowed).toBe(true);
    expect((await budget.take('f')).isAllowed).toBe(true);
    // the budget is spent up to now: a newcomer queues behind the reservations made
    expect((await budget.take('g')).isAllowed).toBe(false);
  });

  it('keeps one place per caller: asking again and again does not push the others back', async () => {
    let now = 0;
    const budget = createMemoryBucket(1, 1, () => now);
    expect((await budget.take('a')).isAllowed).toBe(true);
    const b = await budget.take('b');
    expect(b).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    for (let i = 0; i < 100; i++) {
      expect(await budget.take('hammer')).toEqual({ isAllowed: false, retryAfterSeconds: 2 });
    }
    const c = await budget.take('c');
    expect(c).toEqual({ isAllowed: false, retryAfterSeconds: 3 });
    now += 3000;
    expect((await budget.take('b')).isAllowed).toBe(true);
    expect((await budget.take('hammer')).isAllowed).toBe(true);
    expect((await budget.take('c')).isAllowed).toBe(true);
  });

  it('drains a storm of 1,000 callers at the rate when each comes back at its Retry-After', async () => {
    let now = 0;
    const budget = createMemoryBucket(250, 25, () => now);
    const due = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const r = await budget.take(`agent-${i}`);
      if (!r.isAllowed) {
        due.set(`agent-${i}`, now + r.retryAfterSeconds * 1000);
      }
    }
    expect(due.size).toBe(975);
    let admitted = 0;
    while (due.size > 0) {
      now += 100;
      for (const [k, at] of due) {
        if (at <= now && (await budget.take(k)).isAllowed) {
          due.delete(k);
          admitted++;
        }
      }
    }
    expect(admitted).toBe(975);
    // 975 at 250 a second: the last is admitted about 4 s after the storm, not much later
    expect(now).toBeLessThanOrEqual(5000);
  });

  it('lets a reservation lapse a minute after its time', async () => {
    let now = 0;
    const budget = createMemoryBucket(1, 1, () => now);
    await budget.take('a');
    expect((await budget.take('b')).isAllowed).toBe(false);
    now += 120_000;
    expect((await budget.take('b')).isAllowed).toBe(true); // a fresh decision, the budget is idle
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
