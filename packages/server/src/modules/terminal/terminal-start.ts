import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Bus } from '../../live/bus';
import type { BlobStore } from '../files/blob-store';
import { AsciicastWriter } from './asciicast';
import { TerminalRelay } from './terminal-relay';
import type { RelaySummary } from './terminal-relay';
import type { TerminalSocketQuery } from '@outpost/contract/terminal';
import type { RequestContext } from '../../lib/context';
import type { RemoteTarget } from '../remote-access/remote-access.service';
import { endSession, insertSession } from './terminal.queries';

// docs/product/remote-access.md#terminal: one session from the upgraded socket to its end: its
// row and "Open Terminal" entry, its recording streaming into the blob store, its relay; at the
// end the row says why and "Close Terminal" says for how long, before the browser hears it.

/** What passed the checks before the upgrade (terminal.service.ts `prepare`). */
export type TerminalOpening = { ctx: RequestContext; target: RemoteTarget; query: TerminalSocketQuery };

export type SessionDeps = {
  db: Db;
  bus: Bus;
  blobStore: BlobStore;
  log: FastifyBaseLogger;
  /** the sessions this instance relays, by id */
  relays: Map<string, TerminalRelay>;
  /** ends being written (the server waits for them when it stops) */
  ending: Set<Promise<void>>;
};

export async function startSession(
  deps: SessionDeps,
  socket: WebSocket,
  opening: TerminalOpening,
): Promise<void> {
  const { db, bus, blobStore, log, relays, ending } = deps;
  const { ctx, target, query } = opening;
  const { device, settings } = target;
  const sessionId = crypto.randomUUID();
  const recordingKey = `terminal-${sessionId}`;
  const who = ctx.name ?? ctx.email;
  const deviceName = device.hostname ?? device.deviceGuid;
  await db.transaction(async (tx) => {
    await insertSession(tx, {
      id: sessionId,
      tenantId: ctx.tenantId,
      deviceId: device.id,
      siteId: device.siteId,
      userId: ctx.userId,
      userName: who,
      deviceName,
      shell: query.shell,
      recordingKey,
    });
    await writeAudit(tx, ctx, {
      action: 'Open Terminal',
      resourceType: 'device',
      resourceId: device.id,
      details: `Opened a terminal (${query.shell}) on ${deviceName}`,
      newValues: { session_id: sessionId, shell: query.shell },
      siteIds: [device.siteId],
    });
  });
  const startedAt = Date.now();
  const recorder = new AsciicastWriter({
    width: query.cols,
    height: query.rows,
    timestamp: Math.floor(startedAt / 1000),
    title: `${deviceName} — ${who}`,
    env: { TERM: 'xterm-256color', SHELL: query.shell },
  });
  const stored = blobStore.put(recordingKey, recorder.stream).catch((err: unknown) => {
    log.error({ err, sessionId }, 'terminal recording failed');
    return null;
  });
  const finish = async (summary: RelaySummary) => {
    relays.delete(sessionId);
    recorder.finish();
    const blob = await stored;
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    await db.transaction(async (tx) => {
      await endSession(tx, sessionId, { ...summary, recordingBytes: blob?.size ?? null });
      await writeAudit(tx, ctx, {
        action: 'Close Terminal',
        resourceType: 'device',
        resourceId: device.id,
        details: `Terminal on ${deviceName} ended after ${seconds} s: ${summary.message}`,
        newValues: {
          session_id: sessionId,
          shell: summary.shell,
          end_reason: summary.reason,
          duration_seconds: seconds,
          bytes_in: summary.bytesIn,
          bytes_out: summary.bytesOut,
        },
        siteIds: [device.siteId],
      });
    });
  };
  const relay = new TerminalRelay({
    sessionId,
    deviceId: device.id,
    bus,
    socket,
    recorder,
    shell: query.shell,
    cols: query.cols,
    rows: query.rows,
    requestedBy: who,
    consent: settings.consent_required,
    banner: settings.show_banner,
    idleTimeoutSeconds: settings.idle_timeout_minutes * 60,
    maxSeconds: settings.max_session_minutes * 60,
    maxBytesPerSecond: settings.max_bytes_per_second,
    onEnd: (summary) => {
      const done = finish(summary)
        .catch((err: unknown) => log.error({ err, sessionId }, 'terminal end failed'))
        .finally(() => ending.delete(done));
      ending.add(done);
      return done;
    },
  });
  relays.set(sessionId, relay);
  if (socket.readyState !== socket.OPEN) {
    relay.end('disconnected');
    return;
  }
  relay.open();
}
