import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { WS_PING_INTERVAL_MS } from '@outpost/contract/limits';
import {
  MAX_SUBSCRIPTIONS_PER_SOCKET,
  PORTAL_CLOSE,
  PORTAL_MAX_PENDING_BYTES,
  PORTAL_MAX_PENDING_MESSAGES,
  PortalClientMessage,
  parseSubscriptionKey,
} from '@outpost/contract/live';
import type {
  PortalControlMessages,
  PortalEvent,
  PortalEventType,
  PortalEvents,
  PortalServerMessage,
  SubscriptionKey,
} from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import type { RequestContext } from '../lib/context';
import { canSeeSite } from '../lib/scope';
import type { Bus, BusTopics } from './bus';

// WS /api/ws?tenantId&userId&token (spec: core §4, §7 Websocket; ARCHITECTURE §4). The token is
// verified, tenantId and userId must match it; subscriptions are checked against the caller's
// tenant and site scope. Events reach every instance through the bus. The session is re-checked on
// a server-side timer (every 30 s by default) and when the token expires, so a deleted user or an
// expired token stops receiving events without the client sending anything (closed with 4401).

/** Decides whether a caller may subscribe to `deployment:{id}` (the deployments module's, given by app.ts). */
export type SubscriptionAuthorizer = (
  ctx: RequestContext,
  id: number,
) => Promise<{ siteId: number | null; snapshot?: PortalEvents['deployment_update'] } | null>;

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

/** Portal sessions re-read at once by the periodic check (the pool has 10 connections). */
const SESSION_CHECKS_AT_ONCE = 2;

/** The longest a timer may wait (setTimeout's limit, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const Query = z.object({
  tenantId: z.coerce.number().int().positive(),
  userId: z.coerce.number().int().positive(),
  token: z.string().min(1),
});

type Client = {
  socket: WebSocket;
  ctx: RequestContext;
  token: string;
  keys: Set<string>;
  isAlive: boolean;
  expiryTimer: NodeJS.Timeout | null;
};

/**
 * What the portal socket asks of the modules, wired in app.ts so live/ imports none: who a token
 * belongs to (modules/auth/sessions.service.ts) and whether they may follow a device
 * (modules/devices/devices.service.ts).
 */
export type PortalAccess = {
  resolveSession(
    token: string,
    meta: { ip: string; userAgent: string | null },
  ): Promise<RequestContext | null>;
  canFollowDevice(ctx: RequestContext, deviceGuid: string): Promise<boolean>;
};

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
  const byKey = new Map<string, Set<Client>>();
  const clients = new Set<Client>();

  function send(client: Client, message: PortalServerMessage) {
    sendText(client, JSON.stringify(message));
  }
  function sendText(client: Client, text: string) {
    if (client.socket.readyState === client.socket.OPEN) {
      client.socket.send(text);
    }
  }
  function control<K extends keyof PortalControlMessages>(
    client: Client,
    type: K,
    payload: PortalControlMessages[K],
  ) {
    send(client, { type, payload } as PortalServerMessage);
  }

  const unsubscribe = bus.subscribe('portal', (m) => {
    const set = byKey.get(m.key);
    if (!set) {
      return;
    }
    const text = JSON.stringify(m.event); // once for every subscriber
    for (const client of set) {
      // Belt and braces: the key was authorised at subscribe time; tenant and site are re-checked.
      const isSiteVisible = m.siteId === undefined || canSeeSite(client.ctx, m.siteId);
      if (client.ctx.tenantId === m.tenantId && isSiteVisible) {
        sendText(client, text);
      }
    }
  });

  // SECURITY.md R2-1, R2-3: a member whose sessions ended (removed, role or sites changed) is
  // re-checked at once, so their sockets close (4401) instead of delivering until the next check.
  const unsubscribeSessions = bus.subscribe('portal.sessions', ({ userIds }) => {
    const ended = new Set(userIds);
    for (const client of clients) {
      if (ended.has(client.ctx.userId)) {
        recheck(client).catch((err: unknown) => log.error({ err }, 'portal session check failed'));
      }
    }
  });

  // ws-level pings keep proxies from idling the socket out and find dead peers (core §9: 30 s).
  const pinger = setInterval(() => {
    for (const client of clients) {
      if (!client.isAlive) {
        client.socket.terminate();
        continue;
      }
      client.isAlive = false;
      client.socket.ping();
    }
  }, deps.pingIntervalMs ?? WS_PING_INTERVAL_MS);
  pinger.unref();

  /** Re-reads the session; a deleted user, a removed membership or an expired token closes with 4401. */
  async function recheck(client: Client): Promise<boolean> {
    const fresh = await access.resolveSession(client.token, {
      ip: client.ctx.ip,
      userAgent: client.ctx.userAgent,
    });
    if (!fresh) {
      client.socket.close(PORTAL_CLOSE.invalidToken, messages.tokenInvalid.slice(0, 120));
      return false;
    }
    client.ctx = fresh;
    return true;
  }
  // A few at a time: every socket's session at once took every database connection for as long
  // as the reads lasted, and live updates (an agent's status change) waited behind them.
  let isRecheckingAll = false;
  const recheckAll = async () => {
    if (isRecheckingAll) {
      return;
    }
    isRecheckingAll = true;
    try {
      const all = [...clients];
      for (let i = 0; i < all.length; i += SESSION_CHECKS_AT_ONCE) {
        await Promise.all(
          all
            .slice(i, i + SESSION_CHECKS_AT_ONCE)
            .filter((client) => clients.has(client))
            .map((client) =>
              recheck(client).catch((err: unknown) => log.error({ err }, 'portal session check failed')),
            ),
        );
      }
    } finally {
      isRecheckingAll = false;
    }
  };
  // ARCHITECTURE §4: sessions are re-checked server-side, not only when the client speaks.
  const sessionChecker = setInterval(
    () => void recheckAll(),
    deps.sessionCheckIntervalMs ?? WS_PING_INTERVAL_MS,
  );
  sessionChecker.unref();

  /** Closes the socket when its token expires (checked again then, through the same path). */
  function scheduleExpiry(client: Client) {
    const exp = decodeJwt(client.token).exp;
    if (exp === undefined) {
      return;
    }
    const ms = Math.min(MAX_TIMER_MS, Math.max(0, exp * 1000 - Date.now() + 50));
    client.expiryTimer = setTimeout(() => {
      recheck(client).catch((err: unknown) => log.error({ err }, 'portal session check failed'));
    }, ms);
    client.expiryTimer.unref();
  }

  /** 'ok' may bring the deployment's state now, sent right after 'subscribed'. */
  async function authorize(
    ctx: RequestContext,
    key: string,
  ): Promise<'invalid' | 'denied' | { snapshot?: PortalEvents['deployment_update'] }> {
    const parsed = parseSubscriptionKey(key);
    if (!parsed) {
      return 'invalid';
    }
    if (parsed.kind === 'device') {
      return (await access.canFollowDevice(ctx, parsed.deviceGuid)) ? {} : 'denied';
    }
    const deployment = await deps.authorizeDeployment(ctx, parsed.id);
    return deployment && canSeeSite(ctx, deployment.siteId) ? { snapshot: deployment.snapshot } : 'denied';
  }

  async function handle(client: Client, raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      control(client, 'error', { code: 'invalid_message', message: messages.wsInvalidMessage });
      return;
    }
    const parsed = PortalClientMessage.safeParse(json);
    if (!parsed.success) {
      control(client, 'error', { code: 'invalid_message', message: messages.wsInvalidMessage });
      return;
    }
    const m = parsed.data;
    // Also re-read on every ping and subscription, so a changed role or site scope applies at once.
    if (m.type !== 'unsubscribe' && !(await recheck(client))) {
      return;
    }
    switch (m.type) {
      case 'ping':
        control(client, 'pong', { serverTime: new Date().toISOString() });
        return;
      case 'unsubscribe': {
        const key = m.payload.subscriptionKey;
        client.keys.delete(key);
        byKey.get(key)?.delete(client);
        if (byKey.get(key)?.size === 0) {
          byKey.delete(key);
        }
        control(client, 'unsubscribed', { subscriptionKey: key });
        return;
      }
      case 'subscribe': {
        const raw = m.payload.subscriptionKey;
        const key = normalizeKey(raw);
        if (client.keys.has(key)) {
          control(client, 'subscribed', { subscriptionKey: raw });
          return;
        }
        if (client.keys.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
          control(client, 'error', {
            code: 'too_many_subscriptions',
            message: messages.wsTooManySubscriptions,
            subscriptionKey: raw,
          });
          return;
        }
        const verdict = await authorize(client.ctx, raw);
        if (typeof verdict === 'string') {
          // The same answer for "does not exist" and "not yours", so ids cannot be probed.
          control(client, 'error', {
            code: verdict === 'invalid' ? 'invalid_subscription_key' : 'subscription_denied',
            message:
              verdict === 'invalid' ? messages.wsInvalidSubscriptionKey : messages.wsSubscriptionDenied,
            subscriptionKey: raw,
          });
          return;
        }
        client.keys.add(key);
        let set = byKey.get(key);
        if (!set) {
          set = new Set();
          byKey.set(key, set);
        }
        set.add(client);
        control(client, 'subscribed', { subscriptionKey: raw });
        // A job may have moved between the caller learning its id and subscribing (it starts at
        // once after a create): its current state follows, so no change is missed.
        if (verdict.snapshot) {
          send(client, { type: 'deployment_update', payload: verdict.snapshot });
        }
        return;
      }
    }
  }

  function onSocket(socket: WebSocket, request: FastifyRequest) {
    // Messages may arrive while the session is being resolved: they wait for it, in order.
    let chain: Promise<Client | null> = (async () => {
      const q = Query.safeParse(request.query);
      if (!q.success) {
        socket.close(PORTAL_CLOSE.missingParameters, messages.wsMissingParameters);
        return null;
      }
      const ctx = await access.resolveSession(q.data.token, {
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
      clients.add(client);
      scheduleExpiry(client);
      socket.on('pong', () => {
        client.isAlive = true;
      });
      send(client, {
        type: 'connection_status',
        payload: {
          status: 'connected',
          serverTime: new Date().toISOString(),
          userId: ctx.userId,
          tenantId: ctx.tenantId,
        },
      });
      return client;
    })().catch((err: unknown) => {
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
            await handle(client, raw);
          } catch (err) {
            log.error({ err }, 'portal socket message failed');
            control(client, 'error', { code: 'invalid_message', message: messages.internalError });
          }
        }
        return client;
      });
    });
    socket.on('error', (err) => log.debug({ err: err.message }, 'portal socket error'));
    socket.on('close', () => {
      void chain.then((client) => {
        if (!client) {
          return;
        }
        clients.delete(client);
        if (client.expiryTimer) {
          clearTimeout(client.expiryTimer);
        }
        for (const key of client.keys) {
          const set = byKey.get(key);
          set?.delete(client);
          if (set?.size === 0) {
            byKey.delete(key);
          }
        }
      });
    });
  }

  // With the in-process bus this hub is the only reader: an event for a key no socket here follows
  // is dropped before it is copied and queued (a deployment's thousands of step updates while
  // nobody watches). With Redis another instance may hold the subscriber, so everything goes out.
  const isUnheard = (key: SubscriptionKey) => bus.kind === 'memory' && !byKey.has(key);

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
    accept: onSocket,
    get socketCount() {
      return clients.size;
    },
    close() {
      unsubscribe();
      unsubscribeSessions();
      clearInterval(pinger);
      clearInterval(sessionChecker);
      for (const client of clients) {
        if (client.expiryTimer) {
          clearTimeout(client.expiryTimer);
        }
        client.socket.close(PORTAL_CLOSE.serverShutdown, 'Server shutting down');
      }
      clients.clear();
      byKey.clear();
    },
  };
  return hub;
}

/** A text frame's content, whichever of ws's buffer shapes it arrived in. */
export function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) {
    return Buffer.concat(data).toString('utf8');
  }
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}

/** device guids are compared lower-case; everything else as given. */
function normalizeKey(key: string): string {
  const parsed = parseSubscriptionKey(key);
  if (parsed?.kind === 'device') {
    return `device:${parsed.deviceGuid}`;
  }
  return key;
}
