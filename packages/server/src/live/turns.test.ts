import { describe, expect, it } from 'vitest';
import { createTurns } from './turns';

describe('turns of agents refused while the hello queue is long', () => {
  const clock = () => {
    let t = 1_000_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it('spreads a crowd refused at once over the time the measured rate needs for it', () => {
    const c = clock();
    const turns = createTurns({ initialRate: 100, minSeconds: 2, maxSeconds: 60, now: c.now });
    // 20 hellos recorded in each of three seconds: the rate moves from 100 towards 20
    for (let s = 0; s < 3; s++) {
      for (let i = 0; i < 20; i++) {
        turns.passed();
      }
      c.advance(1000);
    }
    expect(turns.rate).toBeGreaterThan(20);
    expect(turns.rate).toBeLessThan(40);
    const crowd = Array.from({ length: 200 }, () => turns.next());
    // the first comes back after the minimum, each later one a turn further, in order
    expect(crowd[0]).toBe(3);
    expect(crowd.every((s, i) => i === 0 || s >= crowd[i - 1]!)).toBe(true);
    // 200 agents at 20–40 a second need 5–10 s beyond the minimum
    expect(crowd.at(-1)).toBeGreaterThanOrEqual(7);
    expect(crowd.at(-1)).toBeLessThanOrEqual(12);
  });

  it('never tells an agent to stay away longer than the maximum, nor less than the minimum', () => {
    const c = clock();
    const turns = createTurns({ initialRate: 1, minSeconds: 2, maxSeconds: 60, now: c.now });
    const told = Array.from({ length: 2000 }, () => turns.next());
    expect(Math.min(...told)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...told)).toBe(60);
    // once the turns handed out have gone by, a new refusal starts again at the minimum
    c.advance(61_000);
    expect(turns.next()).toBeLessThanOrEqual(3);
  });

  it('keeps a floor under the measured rate when no hello gets through', () => {
    const c = clock();
    const turns = createTurns({ initialRate: 50, minSeconds: 2, maxSeconds: 60, now: c.now });
    for (let s = 0; s < 20; s++) {
      c.advance(1000);
      expect(turns.rate).toBeGreaterThanOrEqual(5);
    }
    expect(turns.rate).toBe(5);
  });
});
