import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createPresence } from './presence';
import type { Presence } from './presence';

// last_seen batches (presence.ts): a message marks its device, the next flush writes the marked
// devices in one statement, and a device written less than a heartbeat interval ago waits for the
// first flush after that (a busy device does not rewrite its row every flush).

const HEARTBEAT_MS = 30_000;

describe('presence: last_seen batches', () => {
  let writes: number[][];
  /** when each write happened (the fake clock) */
  let writtenAt: number[];
  let presence: Presence;

  beforeEach(() => {
    vi.useFakeTimers();
    writes = [];
    writtenAt = [];
    presence = createPresence({
      deviceState: {
        touchLastSeen: (ids) => {
          writes.push([...ids].sort((a, b) => a - b));
          writtenAt.push(Date.now());
          return Promise.resolve();
        },
        markDisconnected: () => Promise.resolve(null),
        sweepStale: () => Promise.resolve(0),
      },
      log: { error: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger,
      options: { heartbeatIntervalMs: HEARTBEAT_MS, presenceGraceMs: 10_000 },
      connections: () => [],
      publishChange: () => Promise.resolve(),
    });
  });

  afterEach(() => {
    presence.close();
    vi.useRealTimers();
  });

  it('writes the touched devices together at the next flush, and nothing when none was touched', () => {
    presence.touch(2);
    presence.touch(1);
    presence.touch(2);
    vi.advanceTimersByTime(5_000);
    expect(writes).toEqual([[1, 2]]);
    vi.advanceTimersByTime(5_000);
    expect(writes).toEqual([[1, 2]]);
  });

  it('writes a device again only a heartbeat interval after its last write, then at once', () => {
    presence.touch(1);
    vi.advanceTimersByTime(5_000); // written at 5 s
    presence.touch(1);
    presence.touch(3);
    vi.advanceTimersByTime(5_000); // 10 s: 3 is new, 1 was written 5 s ago
    expect(writes).toEqual([[1], [3]]);
    presence.touch(1);
    vi.advanceTimersByTime(25_000); // 35 s: still within 30 s of 1's write at each flush up to 30 s
    expect(writes).toEqual([[1], [3], [1]]);
    vi.advanceTimersByTime(5_000); // 40 s: touched by nothing since, nothing to write
    expect(writes).toEqual([[1], [3], [1]]);
  });

  it('counts a last_seen written at the hello: the next write waits an interval from it', () => {
    presence.touch(4);
    presence.written(4); // the hello wrote it
    vi.advanceTimersByTime(5_000);
    expect(writes).toEqual([]);
    presence.touch(4);
    vi.advanceTimersByTime(25_000); // 30 s: an interval after the hello
    expect(writes).toEqual([[4]]);
  });

  it("keeps a busy device's last_seen within the stale sweep's margin", () => {
    const start = Date.now();
    for (let t = 0; t < 300_000; t += 1_000) {
      presence.touch(7); // a message every second
      vi.advanceTimersByTime(1_000);
    }
    expect(writtenAt.length).toBeGreaterThanOrEqual(8); // 300 s at one write per 30–35 s
    const gaps = writtenAt.slice(1).map((t, i) => t - writtenAt[i]!);
    expect(writtenAt[0]! - start).toBeLessThanOrEqual(5_000);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(HEARTBEAT_MS);
    // the sweep treats a device as lost past two intervals, the grace and a flush
    expect(Math.max(...gaps)).toBeLessThanOrEqual(HEARTBEAT_MS + 5_000);
  });
});
