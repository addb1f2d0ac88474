import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { WS_PING_INTERVAL_MS } from '@outpost/contract/limits';
import { PORTAL_CLOSE, PORTAL_MAX_PENDING_BYTES, PORTAL_MAX_PENDING_MESSAGES } from '@outpost/contract/live';
import type { PortalEvent, PortalEventType, PortalEvents, SubscriptionKey } from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import type { PortalAccess } from './portal-access';
import type { Bus, BusTopics } from './bus';
import { createPortalClients, startPings } from './portal-clients';
import type { Client, PortalClients } from './portal-clients';
import { createPortalMessageHandler } from './portal-messages';
import type { SubscriptionAuthorizer } from './portal-messages';
import { startSessionChecks } from './portal-sessions';
import type { SessionChecks } from './portal-sessions';

// WS /api/ws?tenantId&userId&token (docs/product/live-updates.md#connection, #channels; #server-side). The token is
// verified, tenantId and userId must match it; subscriptions are checked against the caller's
// tenant and site scope. Events reach every instance through the bus. The session is re-checked on
// a server-side timer (every 30 s by default) and when the token expires, so a deleted user or an
// expired token stops receiving events without the client sending anything (closed with 4401).

export type { SubscriptionAuthorizer } from './portal-messages';
export type { PortalAccess } from './portal-access';

export type PortalHub = {
  /** Publish a live event to every instance; sockets subscribed to `key` receive it. */
  publish(message: BusTopics['portal']): Promise<void>;
  /** Typed helper: `hub.send(tenantId, key, 'deployment_update', payload)`. */
  send<T extends PortalEventType>(
    tenantId: number,
    key: SubscriptionKey,
    type: T,
    payload: PortalEvents[T],
    /** the device's site when the event is about one device; omitted means not site-bound */
    siteId?: number | null,
  ): Promise<void>;
  /** A portal socket was upgraded on WS /api/ws; it authenticates from the query string. */
  accept(socket: WebSocket, request: FastifyRequest): void;
  readonly socketCount: number;
};

const Query = z.object({
  tenantId: z.coerce.number().int().positive(),
  userId: z.coerce.number().int().positive(),
  token: z.string().min(1),
});

export function createPortalHub(deps: {
  access: PortalAccess;
  bus: Bus;
  log: FastifyBaseLogger;
  pingIntervalMs?: number;
  /** how often every open socket's session is re-read (default 30 s) */
  sessionCheckIntervalMs?: number;
  /** who may follow `deployment:{id}` */
  authorizeDeployment: SubscriptionAuthorizer;
}): PortalHub & { close(): void } {
  const { access, bus, log } = deps;
  const clients = createPortalClients();

  const unsubscribe = bus.subscribe('portal', (m) => clients.fanOut(m));
  const sessions = startSessionChecks({
    access,
    bus,
    log,
    clients: clients.clients,
    intervalMs: deps.sessionCheckIntervalMs ?? WS_PING_INTERVAL_MS,
  });
  const pinger = startPings(clients.clients, deps.pingIntervalMs ?? WS_PING_INTERVAL_MS);
  const handle = createPortalMessageHandler({
    access,
    clients,
    recheck: sessions.recheck,
    authorizeDeployment: deps.authorizeDeployment,
  });
  const socketDeps: SocketDeps = { access, log, clients, sessions, handle };

  // With the in-process bus this hub is the only reader: an event for a key no socket here follows
  // is dropped before it is copied and queued (a deployment's thousands of step updates while
  // nobody watches). With Redis another instance may hold the subscriber, so everything goes out.
  const isUnheard = (key: SubscriptionKey) => bus.kind === 'memory' && !clients.isFollowed(key);

  const hub: PortalHub & { close(): void } = {
    async publish(message) {
      if (!isUnheard(message.key)) {
        await bus.publish('portal', message);
      }
    },
    async send(tenantId, key, type, payload, siteId) {
      if (!isUnheard(key)) {
        await bus.publish('portal', { tenantId, siteId, key, event: { type, payload } as PortalEvent });
      }
    },
    accept: (socket, request) => onSocket(socketDeps, socket, request),
    get socketCount() {
      return clients.clients.size;
    },
    close() {
      unsubscribe();
      sessions.close();
      clearInterval(pinger);
      for (const client of clients.clients) {
        if (client.expiryTimer) {
          clearTimeout(client.expiryTimer);
        }
        client.socket.close(PORTAL_CLOSE.serverShutdown, 'Server shutting down');
      }
      clients.clear();
    },
  };
  return hub;
}

/** What a portal socket works with (built once by createPortalHub). */
type SocketDeps = {
  access: PortalAccess;
  log: FastifyBaseLogger;
  clients: PortalClients;
  sessions: SessionChecks;
  handle: (client: Client, raw: string) => Promise<void>;
};

function onSocket(deps: SocketDeps, socket: WebSocket, request: FastifyRequest) {
  const { log, clients } = deps;
  // Messages may arrive while the session is being resolved: they wait for it, in order.
  let chain: Promise<Client | null> = openClient(deps, socket, request).catch((err: unknown) => {
    log.error({ err }, 'portal socket authentication failed');
    socket.close(1011, 'Internal error');
    return null;
  });

  // Messages are handled one at a time, in order; a client with more waiting than it could need
  // is flooding, and is closed before its backlog grows without bound.
  let pendingMessages = 0;
  let pendingBytes = 0;
  let isFlooded = false;
  socket.on('message', (data, isBinary) => {
    if (isFlooded) {
      return;
    }
    // A binary frame is no message of this protocol: answered as invalid, its bytes not kept.
    const raw = isBinary ? '' : rawText(data);
    const bytes = Buffer.byteLength(raw);
    if (
      pendingMessages + 1 > PORTAL_MAX_PENDING_MESSAGES ||
      pendingBytes + bytes > PORTAL_MAX_PENDING_BYTES
    ) {
      isFlooded = true;
      socket.close(PORTAL_CLOSE.policyViolation, messages.wsTooManyMessages);
      return;
    }
    pendingMessages += 1;
    pendingBytes += bytes;
    chain = chain.then(async (client) => {
      pendingMessages -= 1;
      pendingBytes -= bytes;
      if (client && !isFlooded && socket.readyState === socket.OPEN) {
        try {
          await deps.handle(client, raw);
        } catch (err) {
          log.error({ err }, 'portal socket message failed');
          clients.control(client, 'error', { code: 'invalid_message', message: messages.internalError });
        }
      }
      return client;
    });
  });
  socket.on('error', (err) => log.debug({ err: err.message }, 'portal socket error'));
  socket.on('close', () => {
    void chain.then((client) => {
      if (client) {
        clients.remove(client);
      }
    });
  });
}

/** Authenticates a new socket from its query string; null when it was closed instead. */
async function openClient(
  deps: SocketDeps,
  socket: WebSocket,
  request: FastifyRequest,
): Promise<Client | null> {
  const q = Query.safeParse(request.query);
  if (!q.success) {
    socket.close(PORTAL_CLOSE.missingParameters, messages.wsMissingParameters);
    return null;
  }
  const ctx = await deps.access.resolveSession(q.data.token, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });
  if (!ctx) {
    socket.close(PORTAL_CLOSE.invalidToken, messages.tokenInvalid.slice(0, 120));
    return null;
  }
  if (ctx.tenantId !== q.data.tenantId || ctx.userId !== q.data.userId) {
    socket.close(PORTAL_CLOSE.mismatch, messages.wsMismatch);
    return null;
  }
  if (socket.readyState !== socket.OPEN) {
    return null;
  }
  const client: Client = {
    socket,
    ctx,
    token: q.data.token,
    keys: new Set(),
    isAlive: true,
    expiryTimer: null,
  };
  deps.clients.clients.add(client);
  deps.sessions.scheduleExpiry(client);
  socket.on('pong', () => {
    client.isAlive = true;
  });
  deps.clients.send(client, {
    type: 'connection_status',
    payload: {
      status: 'connected',
      serverTime: new Date().toISOString(),
      userId: ctx.userId,
      tenantId: ctx.tenantId,
    },
  });
  return client;
}

/** A text frame's content, whichever of ws's buffer shapes it arrived in. */
export function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) {
    return Buffer.concat(data).toString('utf8');
  }
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}
