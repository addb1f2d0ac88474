import type { WebSocket } from 'ws';
import type { PortalControlMessages, PortalServerMessage } from '@outpost/contract/live';
import type { RequestContext } from '../lib/context';
import { canSeeSite } from '../lib/scope';
import type { BusTopics } from './bus';

// The portal sockets of this instance (portal-socket.ts) and their subscriptions: who follows
// which key, sending to one socket, and the fan-out of a live event to the sockets that follow it.

export type Client = {
  socket: WebSocket;
  ctx: RequestContext;
  token: string;
  keys: Set<string>;
  isAlive: boolean;
  expiryTimer: NodeJS.Timeout | null;
};

export type PortalClients = {
  readonly clients: Set<Client>;
  /** whether some socket here follows `key` */
  isFollowed(key: string): boolean;
  send(client: Client, message: PortalServerMessage): void;
  sendText(client: Client, text: string): void;
  control<K extends keyof PortalControlMessages>(
    client: Client,
    type: K,
    payload: PortalControlMessages[K],
  ): void;
  follow(client: Client, key: string): void;
  unfollow(client: Client, key: string): void;
  /** The socket closed: it leaves every key it followed. */
  remove(client: Client): void;
  /** Delivers a live event to the sockets here that follow its key and may see it. */
  fanOut(message: BusTopics['portal']): void;
  clear(): void;
};

export function createPortalClients(): PortalClients {
  const byKey = new Map<string, Set<Client>>();
  const clients = new Set<Client>();

  function sendText(client: Client, text: string) {
    if (client.socket.readyState === client.socket.OPEN) {
      client.socket.send(text);
    }
  }
  function send(client: Client, message: PortalServerMessage) {
    sendText(client, JSON.stringify(message));
  }

  return {
    clients,
    isFollowed: (key) => byKey.has(key),
    send,
    sendText,
    control(client, type, payload) {
      send(client, { type, payload } as PortalServerMessage);
    },
    follow(client, key) {
      client.keys.add(key);
      let set = byKey.get(key);
      if (!set) {
        set = new Set();
        byKey.set(key, set);
      }
      set.add(client);
    },
    unfollow(client, key) {
      client.keys.delete(key);
      byKey.get(key)?.delete(client);
      if (byKey.get(key)?.size === 0) {
        byKey.delete(key);
      }
    },
    remove(client) {
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
    },
    fanOut(m) {
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
    },
    clear() {
      clients.clear();
      byKey.clear();
    },
  };
}

/** ws-level pings keep proxies from idling the socket out and find dead peers (docs/product/live-updates.md#limits: 30 s). */
export function startPings(clients: Set<Client>, intervalMs: number): NodeJS.Timeout {
  const pinger = setInterval(() => {
    for (const client of clients) {
      if (!client.isAlive) {
        client.socket.terminate();
        continue;
      }
      client.isAlive = false;
      client.socket.ping();
    }
  }, intervalMs);
  pinger.unref();
  return pinger;
}
