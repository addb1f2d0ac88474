import type { FastifyBaseLogger } from 'fastify';
import type { DeviceChange, DeviceState } from './device-state';

// Presence timers (docs/product/agent-protocol.md#presence): heartbeats are written in batches, a silent socket
// is closed past its heartbeats and grace, a closed one goes offline after the grace period, and
// devices an instance lost without a close are swept offline by whichever instance sees them first.

export type PresenceOptions = { heartbeatIntervalMs: number; presenceGraceMs: number };

/** What presence needs of a connection. */
export type PresenceConnection = {
  readonly connectionId: string;
  readonly device: { id: number };
  lastMessageAt: number;
  terminate(): void;
  /** runs after the connection's queued messages, so offline never overtakes a late message */
  enqueue(task: () => Promise<void>): void;
};

export type Presence = {
  readonly silentLimitMs: number;
  /** a message arrived: last_seen is written with the next batch */
  touch(deviceId: number): void;
  /** last_seen was just written another way (the hello): the next write waits an interval */
  written(deviceId: number): void;
  /** the socket closed after its hello: offline after the grace period unless it said goodbye */
  closed(conn: PresenceConnection, code: number): void;
  close(): void;
};

export function createPresence(deps: {
  deviceState: Pick<DeviceState, 'markDisconnected' | 'sweepStale' | 'touchLastSeen'>;
  log: FastifyBaseLogger;
  options: PresenceOptions;
  connections: () => Iterable<PresenceConnection>;
  publishChange: (change: DeviceChange | null) => Promise<void>;
}): Presence {
  const { deviceState, log, options, publishChange } = deps;
  const touched = new Set<number>();
  const graceTimers = new Map<string, NodeJS.Timeout>();
  const silentLimitMs = options.heartbeatIntervalMs * 2 + options.presenceGraceMs;

  const flushEvery = Math.min(5_000, Math.max(50, Math.floor(options.heartbeatIntervalMs / 2)));
  // A busy device (a script's output, a deployment's steps, a terminal) sends many messages
  // between two heartbeats; its last_seen is written at most once per heartbeat interval, a device
  // touched again sooner waiting in `touched` for the first flush after it. A device row is then
  // rewritten about as often as its heartbeats come, however busy the device is (every write
  // replaces the row in all of the table's indexes: last_seen is indexed, so it is never HOT), and
  // last_seen lags at most an interval plus a flush, within the stale sweep's margin (two
  // intervals, the grace and a flush). Half an interval (until 2026-11-27) rewrote every device
  // of a 10,000-device script run during the run.
  const rewriteAfterMs = options.heartbeatIntervalMs;
  const writtenAt = new Map<number, number>();
  const flushTimer = setInterval(() => {
    const now = Date.now();
    const ids: number[] = [];
    for (const id of touched) {
      if (now - (writtenAt.get(id) ?? -Infinity) >= rewriteAfterMs) {
        ids.push(id);
        writtenAt.set(id, now);
        touched.delete(id);
      }
    }
    if (ids.length === 0) {
      return;
    }
    deviceState.touchLastSeen(ids).catch((err: unknown) => log.error({ err }, 'could not record heartbeats'));
  }, flushEvery);
  const watchdog = setInterval(
    () => {
      const now = Date.now();
      for (const conn of deps.connections()) {
        if (now - conn.lastMessageAt > silentLimitMs) {
          log.info({ deviceId: conn.device.id }, 'agent silent past its heartbeats and grace; closing');
          conn.terminate();
        }
      }
    },
    Math.max(50, Math.floor(options.heartbeatIntervalMs / 2)),
  );
  // Devices whose instance died keep status online; whichever instance sweeps first sets them offline.
  const staleAfterMs = silentLimitMs + flushEvery + 1_000;
  // One sweep at a time: a sweep of a large fleet lost at once outlasts the interval, and another
  // started behind it would only queue on the same rows.
  let isSweeping = false;
  const sweeper = setInterval(
    () => {
      if (isSweeping) {
        return;
      }
      isSweeping = true;
      deviceState
        .sweepStale(staleAfterMs, async (changes) => {
          for (const change of changes) {
            await publishChange(change);
          }
        })
        .catch((err: unknown) => log.error({ err }, 'presence sweep failed'))
        .finally(() => {
          isSweeping = false;
        });
    },
    Math.min(60_000, Math.max(1_000, options.presenceGraceMs)),
  );
  for (const t of [flushTimer, watchdog, sweeper]) {
    t.unref();
  }

  return {
    silentLimitMs,
    touch(deviceId) {
      touched.add(deviceId);
    },
    written(deviceId) {
      writtenAt.set(deviceId, Date.now());
      touched.delete(deviceId);
    },
    closed(conn, code) {
      writtenAt.delete(conn.device.id);
      // A socket closed for silence has already had its grace; an agent that says goodbye (1000:
      // stopping for a restart or shutdown) is offline at once.
      const wasSilent = Date.now() - conn.lastMessageAt > silentLimitMs;
      const isGoodbye = code === 1000;
      const graceMs = wasSilent || isGoodbye ? 0 : options.presenceGraceMs;
      const timer = setTimeout(() => {
        graceTimers.delete(conn.connectionId);
        conn.enqueue(async () => {
          try {
            await publishChange(await deviceState.markDisconnected(conn.device.id, conn.connectionId));
          } catch (err) {
            log.error({ err, deviceId: conn.device.id }, 'could not mark the device offline');
          }
        });
      }, graceMs);
      graceTimers.set(conn.connectionId, timer);
    },
    close() {
      for (const t of [flushTimer, watchdog, sweeper]) {
        clearInterval(t);
      }
      for (const t of graceTimers.values()) {
        clearTimeout(t);
      }
      graceTimers.clear();
    },
  };
}
