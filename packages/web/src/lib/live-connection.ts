import { z } from 'zod';
import { PortalEventSchemas } from '@outpost/contract/live';
import type { PortalClientMessage, PortalEvent, PortalEventType } from '@outpost/contract/live';
import {
  WS_CONNECT_DELAY_MS,
  WS_NO_RETRY_CLOSE_CODES,
  WS_PING_INTERVAL_MS,
  WS_RECONNECT_DELAYS_MS,
} from '@outpost/contract/limits';

// The portal socket's connection state machine, free of React so it can be tested with a fake
// socket and fake timers.
//
// docs/product/live-updates.md#connection Websocket status and #limits — connects about 1 s after user, tenant and token are all
// present; re-subscribes every key on open; on close retries after 2, 4, 8 s (at most 3 times),
// never after close codes 1006 and 1011; pings every 30 s; errors are logged and set 'error'.
//
// Beyond the original product description, a way out once it has given up (a server restart ends in 1006 on the first
// retry): `reconnect()` (the badge's Reconnect action) and `wake()` (the tab became visible or the
// browser came back online) start a fresh connection with a fresh retry schedule.

export type SocketStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

export type ConnectionState = {
  status: SocketStatus;
  /** no retry is scheduled: only reconnect() or wake() opens the socket again */
  hasGivenUp: boolean;
};

/** The part of the browser's WebSocket the connection uses (a fake one in tests). */
export type SocketLike = {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
};

const OPEN = 1;

const Envelope = z.object({ type: z.string(), payload: z.unknown() });

/** A server message checked against the contract's event schemas; null for anything else. */
export function parsePortalEvent(data: unknown): PortalEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(String(data));
  } catch {
    return null;
  }
  const envelope = Envelope.safeParse(raw);
  if (!envelope.success || !Object.hasOwn(PortalEventSchemas, envelope.data.type)) {
    return null;
  }
  const type = envelope.data.type as PortalEventType;
  const payload = PortalEventSchemas[type].safeParse(envelope.data.payload);
  if (!payload.success) {
    console.warn(`Live updates: ignored a malformed ${type}`, payload.error.issues);
    return null;
  }
  // The schema was picked by `type`, so the pair is one member of the PortalEvent union.
  return { type, payload: payload.data } as PortalEvent;
}

export type LiveConnectionOptions = {
  url: string;
  onState: (state: ConnectionState) => void;
  onEvent: (event: PortalEvent) => void;
  createSocket?: (url: string) => SocketLike;
};

export class LiveConnection {
  private readonly options: LiveConnectionOptions;
  private readonly keys = new Set<string>();
  private socket: SocketLike | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pinger: ReturnType<typeof setInterval> | undefined;
  private isDisposed = false;
  private state: ConnectionState = { status: 'disconnected', hasGivenUp: false };

  constructor(options: LiveConnectionOptions) {
    this.options = options;
  }

  get current(): ConnectionState {
    return this.state;
  }

  /** Opens the socket about 1 s from now (docs/product/live-updates.md#connection). */
  start() {
    this.schedule(WS_CONNECT_DELAY_MS);
  }

  /** The Reconnect action: a fresh connection now, with a fresh retry schedule. */
  reconnect() {
    if (this.isDisposed || this.socket) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.attempts = 0;
    this.connect();
  }

  /** The tab became visible or the browser came back online: reconnect if it had given up. */
  wake() {
    if (this.state.hasGivenUp) {
      this.reconnect();
    }
  }

  subscribe(key: string) {
    if (!this.keys.has(key)) {
      this.keys.add(key);
      this.send({ type: 'subscribe', payload: { subscriptionKey: key } });
    }
  }

  unsubscribe(key: string) {
    if (this.keys.delete(key)) {
      this.send({ type: 'unsubscribe', payload: { subscriptionKey: key } });
    }
  }

  dispose() {
    this.isDisposed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'signed out');
  }

  private setState(next: ConnectionState) {
    if (next.status !== this.state.status || next.hasGivenUp !== this.state.hasGivenUp) {
      this.state = next;
      this.options.onState(next);
    }
  }

  private send(message: PortalClientMessage) {
    if (this.socket?.readyState === OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  private schedule(delay: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connect();
    }, delay);
  }

  private connect() {
    if (this.isDisposed) {
      return;
    }
    this.setState({ status: 'connecting', hasGivenUp: false });
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url));
    const ws = create(this.options.url);
    this.socket = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.setState({ status: 'connected', hasGivenUp: false });
      for (const key of this.keys) {
        this.send({ type: 'subscribe', payload: { subscriptionKey: key } });
      }
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: 'ping' }), WS_PING_INTERVAL_MS);
    };
    ws.onmessage = (event) => {
      const message = parsePortalEvent(event.data);
      if (message) {
        this.options.onEvent(message);
      }
    };
    ws.onerror = (event) => {
      console.error('Live updates: websocket error', event);
      this.setState({ status: 'error', hasGivenUp: this.state.hasGivenUp });
    };
    ws.onclose = (event) => {
      if (this.socket !== ws) {
        return;
      }
      clearInterval(this.pinger);
      this.socket = null;
      if (this.isDisposed) {
        return;
      }
      const status = this.state.status === 'error' ? 'error' : 'disconnected';
      const isRetryable = !(WS_NO_RETRY_CLOSE_CODES as readonly number[]).includes(event.code);
      const delay = WS_RECONNECT_DELAYS_MS[this.attempts];
      if (isRetryable && delay !== undefined) {
        this.attempts += 1;
        this.setState({ status, hasGivenUp: false });
        this.schedule(delay);
      } else {
        this.setState({ status: 'disconnected', hasGivenUp: true });
      }
    };
  }
}
