import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { PortalEvent } from '@outpost/contract/live';
import { LiveConnection } from './live-connection';
import type { ConnectionState, SocketStatus } from './live-connection';

// The live socket for React: one LiveConnection per signed-in user (lib/live-connection.ts has
// the product's connection rules), its state for the badge, and the events for whoever listens.

export type { SocketStatus };
type Listener = (event: PortalEvent) => void;

type LiveSocket = ConnectionState & {
  /** Opens a fresh connection now (the badge's Reconnect action). */
  reconnect: () => void;
  subscribe: (key: string) => void;
  unsubscribe: (key: string) => void;
  addListener: (listener: Listener) => () => void;
};

const SocketContext = createContext<LiveSocket | null>(null);

export function socketUrl(
  tenantId: number,
  userId: number,
  token: string,
  location = window.location,
): string {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams({ tenantId: String(tenantId), userId: String(userId), token });
  return `${protocol}//${location.host}/api/ws?${q.toString()}`;
}

const idle: ConnectionState = { status: 'disconnected', hasGivenUp: false };

export function LiveSocketProvider({
  tenantId,
  userId,
  token,
  children,
}: {
  tenantId: number | null;
  userId: number | null;
  token: string | null;
  children: ReactNode;
}) {
  const [state, setState] = useState<ConnectionState>(idle);
  // How many holders each key has: two screens (or a screen and the shell) may want the same
  // channel, and one of them leaving must not unsubscribe the other.
  const keys = useRef(new Map<string, number>());
  const listeners = useRef(new Set<Listener>());
  const connectionRef = useRef<LiveConnection | null>(null);

  useEffect(() => {
    // The socket is never opened without user id, tenant id and token (docs/product/live-updates.md#connection).
    if (tenantId === null || userId === null || !token) {
      return;
    }
    const connection = new LiveConnection({
      url: socketUrl(tenantId, userId, token),
      onState: setState,
      onEvent: (event) => {
        for (const listener of listeners.current) {
          listener(event);
        }
      },
    });
    for (const key of keys.current.keys()) {
      connection.subscribe(key);
    }
    connectionRef.current = connection;
    connection.start();
    // After giving up, come back by itself when the user returns to the tab or the network does.
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        connection.wake();
      }
    };
    const onOnline = () => connection.wake();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
      connection.dispose();
      connectionRef.current = null;
      setState(idle);
    };
  }, [tenantId, userId, token]);

  const subscribe = useCallback((key: string) => {
    const holders = keys.current.get(key) ?? 0;
    keys.current.set(key, holders + 1);
    if (holders === 0) {
      connectionRef.current?.subscribe(key);
    }
  }, []);
  const unsubscribe = useCallback((key: string) => {
    const holders = keys.current.get(key) ?? 0;
    if (holders > 1) {
      keys.current.set(key, holders - 1);
      return;
    }
    keys.current.delete(key);
    connectionRef.current?.unsubscribe(key);
  }, []);
  const reconnect = useCallback(() => connectionRef.current?.reconnect(), []);
  const addListener = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const value = useMemo(
    () => ({ ...state, reconnect, subscribe, unsubscribe, addListener }),
    [state, reconnect, subscribe, unsubscribe, addListener],
  );
  return <SocketContext.Provider value={value}>{children}</SocketContext.Provider>;
}

export function useLiveSocket(): LiveSocket {
  const ctx = useContext(SocketContext);
  if (!ctx) {
    throw new Error('useLiveSocket must be used inside <LiveSocketProvider>');
  }
  return ctx;
}

/** Subscribes to the given channel keys while mounted and connected; re-run when keys change. */
export function useSubscriptions(subscriptionKeys: string[]) {
  const { subscribe, unsubscribe } = useLiveSocket();
  const joined = subscriptionKeys.join('|');
  useEffect(() => {
    const list = joined ? joined.split('|') : [];
    list.forEach(subscribe);
    return () => list.forEach(unsubscribe);
  }, [joined, subscribe, unsubscribe]);
}

export function useLiveMessages(listener: Listener) {
  const { addListener } = useLiveSocket();
  const ref = useRef(listener);
  useEffect(() => {
    ref.current = listener;
  });
  useEffect(() => addListener((m) => ref.current(m)), [addListener]);
}
