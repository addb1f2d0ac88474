import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createPresence } from './presence';
import type { Presence } from './presence';

// last_seen batches (presence.ts): a message marks its device, the next flush writes the marked
// devices in one statement, and a device written less than half a heartbeat interval ago waits for
// the first flush after that (a busy device does not rewrite its row every flush).

const HEARTBEAT_MS = 30_000;

describe('presence: last_seen batches', () => {
  let writes: number[][];
  let presence: Presence;

  beforeEach(() => {
    vi.useFakeTimers();
    writes = [];
    presence = createPresence({
      deviceState: {
        touchLastSeen: (ids) => {
          writes.push([...ids].sort((a, b) => a - b));
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

  it('writes a device again only half a heartbeat interval after its last write, then at once', () => {
    presence.touch(1);
    vi.advanceTimersByTime(5_000); // written at 5 s
    presence.touch(1);
    presence.touch(3);
    vi.advanceTimersByTime(5_000); // 10 s: 3 is new, 1 was written 5 s ago
    expect(writes).toEqual([[1], [3]]);
    vi.advanceTimersByTime(5_000); // 15 s: still within 15 s of 1's write
    expect(writes).toEqual([[1], [3]]);
    vi.advanceTimersByTime(5_000); // 20 s: 15 s after it, the waiting touch is written
    expect(writes).toEqual([[1], [3], [1]]);
  });
});
