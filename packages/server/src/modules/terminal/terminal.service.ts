import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { TerminalShell } from '@outpost/contract/agent-protocol';
import { isDeviceActionable } from '@outpost/contract/devices';
import { messages } from '@outpost/contract/messages';
import { remoteMessages } from '@outpost/contract/remote-access';
import { TerminalSocketQuery, terminalMessages } from '@outpost/contract/terminal';
import type { TerminalSessionView } from '@outpost/contract/terminal';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { HttpError, badRequest, notFound, unauthorized } from '../../lib/errors';
import type { Bus } from '../../live/bus';
import type { BlobStore } from '../files/blob-store';
import type { RemoteAccessService } from '../remote-access/remote-access.service';
import type { TerminalRelay } from './terminal-relay';
import { startSession } from './terminal-start';
import type { TerminalOpening } from './terminal-start';

export type { TerminalOpening } from './terminal-start';
import { findSession, listSessions } from './terminal.queries';

// docs/product/remote-access.md#terminal: who may open a terminal on which device (the
// remote-access check, then the device connected), the sessions on this instance and their
// relays, their rows, audit entries and recordings, and the sessions list.

const WINDOWS_SHELLS: readonly TerminalShell[] = ['powershell', 'cmd'];

export function createTerminalService(deps: {
  db: Db;
  bus: Bus;
  blobStore: BlobStore;
  remoteAccess: Pick<RemoteAccessService, 'authorize'>;
  resolveSession: (
    token: string,
    meta: { ip: string; userAgent: string | null },
  ) => Promise<RequestContext | null>;
  log: FastifyBaseLogger;
}) {
  const { db, bus, blobStore, log } = deps;
  const relays = new Map<string, TerminalRelay>();
  /** sessions whose end is being written */
  const ending = new Set<Promise<void>>();
  const unsubscribe = [
    // the agent's answers, from whichever instance holds its socket, in order
    bus.subscribe('remote.reply', ({ key, message }) => relays.get(key)?.fromAgent(message)),
    // the device's socket closed: its sessions cannot go on
    bus.subscribe('agent.remote_closed', ({ deviceId }) => {
      for (const relay of relays.values()) {
        if (relay.deviceId === deviceId) {
          relay.end('device_offline');
        }
      }
    }),
  ];

  return {
    /** how many sessions this instance relays */
    get activeCount() {
      return relays.size;
    },

    /**
     * Before the upgrade: the caller (the session token, as on the portal socket), the
     * remote-access check, the device connected, a shell of its platform. Throws 4xx otherwise.
     */
    async prepare(
      rawQuery: unknown,
      deviceId: number,
      meta: { ip: string; userAgent: string | null },
    ): Promise<TerminalOpening> {
      const parsed = TerminalSocketQuery.safeParse(rawQuery);
      if (!parsed.success) {
        const noToken = !(rawQuery as { token?: unknown } | null)?.token;
        throw noToken
          ? unauthorized(messages.tokenMissing, 'NO_TOKEN')
          : badRequest(terminalMessages.badQuery, 'BAD_TERMINAL_QUERY');
      }
      const ctx = await deps.resolveSession(parsed.data.token, meta);
      if (!ctx) {
        throw unauthorized(messages.tokenInvalid, 'INVALID_SESSION');
      }
      const target = await deps.remoteAccess.authorize(ctx, 'terminal', deviceId);
      if (!isDeviceActionable(target.device.status)) {
        throw new HttpError(409, remoteMessages.deviceOffline, 'DEVICE_OFFLINE');
      }
      const windows = target.device.osType === 'windows';
      const shell = parsed.data.shell;
      if (!windows && WINDOWS_SHELLS.includes(shell)) {
        throw badRequest(terminalMessages.windowsShellOnly, 'BAD_TERMINAL_SHELL');
      }
      if (windows && !WINDOWS_SHELLS.includes(shell) && shell !== 'default') {
        throw badRequest(terminalMessages.notWindowsShell, 'BAD_TERMINAL_SHELL');
      }
      return { ctx, target, query: parsed.data };
    },

    /** The upgraded socket: a new session, relayed until it ends. */
    async accept(socket: WebSocket, opening: TerminalOpening): Promise<void> {
      await startSession({ db, bus, blobStore, log, relays, ending }, socket, opening);
    },

    async list(
      ctx: RequestContext,
      filter: { device_id?: number; limit: number },
    ): Promise<TerminalSessionView[]> {
      return listSessions(db, ctx, { deviceId: filter.device_id, limit: filter.limit });
    },

    /** The session's asciicast file: another tenant's, or another site's, is not found. */
    async recording(ctx: RequestContext, id: string): Promise<{ stream: Readable; fileName: string }> {
      const session = await findSession(db, ctx, id);
      if (!session) {
        throw notFound(terminalMessages.sessionNotFound, 'TERMINAL_SESSION_NOT_FOUND');
      }
      if (!session.recordingKey || !session.has_recording) {
        throw notFound(terminalMessages.recordingMissing, 'TERMINAL_RECORDING_MISSING');
      }
      const stream = await blobStore.open(session.recordingKey).catch(() => {
        throw notFound(terminalMessages.recordingMissing, 'TERMINAL_RECORDING_MISSING');
      });
      const day = session.started_at.slice(0, 10);
      const name = (session.device_name ?? 'device').replace(/[^A-Za-z0-9._-]+/g, '-');
      return { stream, fileName: `terminal-${name}-${day}-${id.slice(0, 8)}.cast` };
    },

    /** The server stops: its sessions end and say so (their rows written before it returns). */
    async close(): Promise<void> {
      for (const u of unsubscribe) {
        u();
      }
      for (const relay of [...relays.values()]) {
        relay.end('server_stopped');
      }
      await Promise.allSettled([...ending]);
    },
  };
}

export type TerminalService = ReturnType<typeof createTerminalService>;
