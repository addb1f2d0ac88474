import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CastPlayer, MAX_GAP_SECONDS, parseCast } from './asciicast-player';

// docs/product/remote-access.md#recording-and-replay: a recording plays back at its times, long
// pauses shortened, resizes followed, pause and speed.

const cast = [
  JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1 }),
  JSON.stringify([0.5, 'o', 'a']),
  JSON.stringify([1, 'r', '100x30']),
  JSON.stringify([1.5, 'o', 'b']),
  JSON.stringify([30, 'o', 'c']),
].join('\n');

describe('the asciicast player', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('parses the header and events, shortening pauses over MAX_GAP_SECONDS', () => {
    const parsed = parseCast(cast);
    expect(parsed).toMatchObject({ width: 80, height: 24, duration: 1.5 + MAX_GAP_SECONDS });
    expect(parsed.events).toEqual([
      [0.5, 'o', 'a'],
      [1, 'r', '100x30'],
      [1.5, 'o', 'b'],
      [1.5 + MAX_GAP_SECONDS, 'o', 'c'],
    ]);
  });

  it('plays at its times and speed, follows resizes, pauses and resumes', () => {
    const out: string[] = [];
    const sizes: string[] = [];
    const player = new CastPlayer(
      parseCast(cast),
      (d) => d && out.push(d),
      (c, r) => sizes.push(`${c}x${r}`),
      () => undefined,
    );
    player.play(() => undefined);
    vi.advanceTimersByTime(600);
    expect(out).toEqual(['a']);
    player.pause();
    vi.advanceTimersByTime(5000);
    expect(out).toEqual(['a']);
    player.setSpeed(2);
    player.play(() => undefined);
    vi.advanceTimersByTime(500);
    expect(sizes).toEqual(['100x30']);
    expect(out).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1100);
    expect(out).toEqual(['a', 'b', 'c']);
    expect(player.playing).toBe(false);
  });
});
