import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import {
  WS_CONNECT_DELAY_MS,
  WS_NO_RETRY_CLOSE_CODES,
  WS_PING_INTERVAL_MS,
  WS_RECONNECT_DELAYS_MS,
} from '@outpost/contract/limits';

// spec: core §4 Websocket status and §9 — connects about 1 s after user, tenant and token are all
// present; re-subscribes every key on open; on close retries after 2, 4, 8 s (at most 3 times),
// never after close codes 1006 and 1011; pings every 30 s; errors are logged and set 'error'.

export type SocketStatus = 'disconnected' | 'connecting' | 'connected' | 'error';
export type LiveMessage = { type: string; payload: Record<string, unknown> };
type Listener = (message: LiveMessage) => void;

type LiveSocket = {
  status: SocketStatus;
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
  return `${protocol}//${location.host}/api/ws?${q}`;
}

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
  const [status, setStatus] = useState<SocketStatus>('disconnected');
  const keys = useRef(new Set<string>());
  const listeners = useRef(new Set<Listener>());
  const socketRef = useRef<WebSocket | null>(null);

  const send = useCallback((message: object) => {
    const ws = socketRef.current;
    if (ws?.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(message));
    }
  }, []);

  useEffect(() => {
    // The socket is never opened without user id, tenant id and token (spec: core §5).
    if (tenantId === null || userId === null || !token) {
      return;
    }
    let isDisposed = false;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pinger: ReturnType<typeof setInterval> | undefined;

    const connect = () => {
      if (isDisposed) {
        return;
      }
      setStatus('connecting');
      const ws = new WebSocket(socketUrl(tenantId, userId, token));
      socketRef.current = ws;
      ws.onopen = () => {
        attempts = 0;
        setStatus('connected');
        for (const key of keys.current) {
          ws.send(JSON.stringify({ type: 'subscribe', payload: { subscriptionKey: key } }));
        }
        pinger = setInterval(
          () => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'ping' })),
          WS_PING_INTERVAL_MS,
        );
      };
      ws.onmessage = (event) => {
        let message: LiveMessage;
        try {
          message = JSON.parse(String(event.data)) as LiveMessage;
        } catch {
          return;
        }
        for (const listener of listeners.current) {
          listener(message);
        }
      };
      ws.onerror = (event) => {
        console.error('Live updates: websocket error', event);
        setStatus('error');
      };
      ws.onclose = (event) => {
        clearInterval(pinger);
        socketRef.current = null;
        if (isDisposed) {
          return;
        }
        setStatus((s) => (s === 'error' ? s : 'disconnected'));
        const isRetryable = !(WS_NO_RETRY_CLOSE_CODES as readonly number[]).includes(event.code);
        const delay = WS_RECONNECT_DELAYS_MS[attempts];
        if (isRetryable && delay !== undefined) {
          attempts += 1;
          timer = setTimeout(connect, delay);
        } else {
          setStatus('disconnected');
        }
      };
    };

    timer = setTimeout(connect, WS_CONNECT_DELAY_MS);
    return () => {
      isDisposed = true;
      clearTimeout(timer);
      clearInterval(pinger);
      socketRef.current?.close(1000, 'signed out');
      socketRef.current = null;
      setStatus('disconnected');
    };
  }, [tenantId, userId, token]);

  const subscribe = useCallback(
    (key: string) => {
      if (!keys.current.has(key)) {
        keys.current.add(key);
        send({ type: 'subscribe', payload: { subscriptionKey: key } });
      }
    },
    [send],
  );
  const unsubscribe = useCallback(
    (key: string) => {
      if (keys.current.delete(key)) {
        send({ type: 'unsubscribe', payload: { subscriptionKey: key } });
      }
    },
    [send],
  );
  const addListener = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const value = useMemo(
    () => ({ status, subscribe, unsubscribe, addListener }),
    [status, subscribe, unsubscribe, addListener],
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
