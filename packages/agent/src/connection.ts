import WebSocket from 'ws';
import {
  AGENT_CAPABILITIES,
  AGENT_DEVICE_HEADER,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  ServerToAgentMessage,
} from '@outpost/contract/agent-protocol';
import type {
  AckedAgentMessage,
  AgentMessage,
  ChecksMessage,
  ServerRemoteMessage,
  CommandMessage,
  HelloMessage,
  WelcomeMessage,
} from '@outpost/contract/agent-protocol';
import { parseRetryAfter, retryDelay } from './backoff';
import type { Outbox } from './outbox';

// The agent's websocket to WS /api/agent/ws: hello first, heartbeats at the interval the server
// names in its welcome, reconnects with exponential backoff and full jitter, and an outbox of
// unacknowledged messages resent after every reconnect.

export type Logger = {
  info(msg: string, extra?: object): void;
  warn(msg: string, extra?: object): void;
  error(msg: string, extra?: object): void;
};

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export type ConnectionOptions = {
  server: string;
  deviceGuid: string;
  agentSecret: string;
  outbox: Outbox;
  hello: () => Promise<HelloMessage>;
  onCommand: (command: CommandMessage) => void;
  /** the device's check set (only sent to an agent that lists the `checks` capability) */
  onChecks?: (message: ChecksMessage) => void;
  /** remote access messages (only sent to an agent that lists the `remote` capability) */
  onRemote?: (message: ServerRemoteMessage) => void;
  /** capabilities besides ack_lists (which the connection itself implements) */
  capabilities?: readonly string[];
  /** called after each welcome (e.g. to send a fresh inventory) */
  onConnected?: (welcome: WelcomeMessage) => void;
  /** the server acknowledged a message (it is already out of the outbox) */
  onAck?: (messageId: string) => void;
  /** the server refused a message as invalid (it is already out of the outbox: resending cannot help) */
  onRefused?: (messageId: string) => void;
  log?: Logger;
  backoff?: { baseMs: number; capMs: number };
  random?: () => number;
  /** an opened socket without a welcome after this long is dropped and retried (default 30 s) */
  welcomeTimeoutMs?: number;
  /**
   * the local address the socket binds (the simulator spreads large fleets over 127.0.0.2, 127.0.0.3 …:
   * each source address has its own ephemeral ports); the system's choice without it
   */
  localAddress?: string;
};

const DEFAULT_WELCOME_TIMEOUT_MS = 30_000;
/** Heartbeat intervals without a frame or pong from the server before the socket counts as dead. */
const SILENT_INTERVALS = 3;

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'stopped';

/** The server refused us for good (unknown device or wrong secret): retrying will not help. */
const FATAL_STATUS = new Set([401]);

export class AgentConnection {
  state: ConnectionState = 'idle';
  private ws: WebSocket | null = null;
  private attempt = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private welcomeTimer: NodeJS.Timeout | null = null;
  /** when the server was last heard on the current socket (a frame or a pong) */
  private lastHeard = 0;
  private readonly log: Logger;
  private readonly listeners = new Set<(state: ConnectionState) => void>();

  constructor(private readonly options: ConnectionOptions) {
    this.log = options.log ?? silentLogger;
  }

  start() {
    if (this.state === 'idle') {
      this.connect();
    }
  }

  async stop() {
    this.setState('stopped');
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'Agent stopping');
        setTimeout(() => {
          ws.terminate();
          resolve();
        }, 2000).unref();
      });
    }
  }

  /** Drop the socket without a goodbye (the simulator's "occasional disconnects"). */
  drop() {
    this.ws?.terminate();
  }

  onState(listener: (state: ConnectionState) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Best effort: sent now if connected, otherwise dropped (heartbeats, faults). */
  send(message: AgentMessage) {
    if (this.state === 'connected' && this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
    }
  }

  /** Kept in the outbox until the server acknowledges it; resent after reconnects. */
  sendReliable(message: AckedAgentMessage) {
    this.options.outbox.put(message);
    this.send(message);
  }

  private setState(state: ConnectionState) {
    if (this.state === 'stopped' && state !== 'stopped') {
      return;
    }
    this.state = state;
    for (const l of this.listeners) {
      l(state);
    }
  }

  private clearTimers() {
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
    if (this.retry) {
      clearTimeout(this.retry);
      this.retry = null;
    }
    if (this.welcomeTimer) {
      clearTimeout(this.welcomeTimer);
      this.welcomeTimer = null;
    }
  }

  private connect() {
    if (this.state === 'stopped') {
      return;
    }
    this.setState('connecting');
    const url = this.options.server.replace(/^http/, 'ws').replace(/\/$/, '') + '/api/agent/ws';
    const ws = new WebSocket(url, {
      headers: {
        [AGENT_DEVICE_HEADER]: this.options.deviceGuid,
        authorization: `Bearer ${this.options.agentSecret}`,
      },
      // a server too slow to answer the upgrade counts like one that never welcomes
      handshakeTimeout: Math.min(15_000, this.options.welcomeTimeoutMs ?? DEFAULT_WELCOME_TIMEOUT_MS),
      ...(this.options.localAddress !== undefined && { localAddress: this.options.localAddress }),
    });
    this.ws = ws;
    let isFatal = false;
    // a refusal (429 too many failures, 503 upgrade budget) says when to come back
    let retryAfterMs: number | null = null;

    ws.on('unexpected-response', (_req, res) => {
      isFatal = FATAL_STATUS.has(res.statusCode ?? 0);
      const header = res.headers['retry-after'];
      retryAfterMs = parseRetryAfter(typeof header === 'string' ? header : null);
      this.log.warn(`server refused the connection (${res.statusCode})`);
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => {
      this.options
        .hello()
        .then((hello) => {
          // the capabilities are the connection's: it is what reads the server's acks
          const capabilities = [AGENT_CAPABILITIES.ackLists, ...(this.options.capabilities ?? [])];
          ws.send(JSON.stringify({ ...hello, capabilities }));
          // A server that accepts the socket but never welcomes us (hung, or not an Outpost
          // server) must not hold the agent forever: drop it and retry with backoff.
          if (this.ws === ws && this.state === 'connecting') {
            this.welcomeTimer = setTimeout(() => {
              this.log.warn('no welcome from the server; reconnecting');
              ws.terminate();
            }, this.options.welcomeTimeoutMs ?? DEFAULT_WELCOME_TIMEOUT_MS);
            this.welcomeTimer.unref();
          }
        })
        .catch((err: unknown) => {
          this.log.error('could not build hello', { err: String(err) });
          ws.terminate();
        });
    });
    ws.on('message', (data) => {
      this.lastHeard = Date.now();
      this.onMessage(ws, messageText(data));
    });
    ws.on('pong', () => {
      this.lastHeard = Date.now();
    });
    ws.on('error', (err) => this.log.warn('connection error', { err: err.message }));
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) {
        return;
      }
      this.clearTimers();
      this.ws = null;
      if (this.state === 'stopped') {
        return;
      }
      if (isFatal) {
        this.log.error('the server does not know this device or its secret; enrol again');
        this.setState('stopped');
        return;
      }
      const backoff = this.options.backoff ?? { baseMs: 1000, capMs: 60_000 };
      const delay = retryDelay(this.attempt++, backoff, retryAfterMs, this.options.random);
      this.log.info(`disconnected (${code} ${reason.toString()}); reconnecting in ${delay} ms`);
      this.setState('connecting');
      this.retry = setTimeout(() => this.connect(), delay);
    });
  }

  private onMessage(ws: WebSocket, raw: string) {
    let message: ServerToAgentMessage;
    try {
      const parsed = ServerToAgentMessage.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        this.log.warn('ignored an unknown server message');
        return;
      }
      message = parsed.data;
    } catch {
      return;
    }
    switch (message.type) {
      case 'welcome': {
        if (this.state === 'connected') {
          return; // a second welcome on the same socket changes nothing
        }
        if (this.welcomeTimer) {
          clearTimeout(this.welcomeTimer);
          this.welcomeTimer = null;
        }
        this.attempt = 0;
        this.setState('connected');
        const every = message.heartbeatIntervalMs || DEFAULT_HEARTBEAT_INTERVAL_MS;
        this.lastHeard = Date.now();
        this.heartbeat = setInterval(() => {
          // A server that stopped answering (frozen, or a connection silently lost on the way)
          // answers no ping: past a few intervals the socket is dropped and re-opened.
          if (Date.now() - this.lastHeard > every * SILENT_INTERVALS) {
            this.log.warn('the server stopped answering; reconnecting');
            ws.terminate();
            return;
          }
          this.send({ type: 'heartbeat', sentAt: new Date().toISOString() });
          if (ws.readyState === WebSocket.OPEN) {
            ws.ping();
          }
        }, every);
        this.heartbeat.unref();
        for (const pending of this.options.outbox.list()) {
          ws.send(JSON.stringify(pending));
        }
        this.options.onConnected?.(message);
        return;
      }
      case 'ack':
        // one message, or (servers that know the agent's ack_lists capability) several at once
        for (const id of [message.messageId, ...(message.messageIds ?? [])]) {
          this.options.outbox.remove(id);
          this.options.onAck?.(id);
        }
        return;
      case 'command':
        this.options.onCommand(message);
        return;
      case 'checks':
        this.options.onChecks?.(message);
        return;
      case 'remote_policy':
      case 'terminal_open':
      case 'terminal_input':
      case 'terminal_resize':
      case 'terminal_close':
      case 'fs_list':
      case 'file_send':
      case 'file_receive':
      case 'file_cancel':
        this.options.onRemote?.(message);
        return;
      case 'error':
        this.log.warn(`server error: ${message.code}: ${message.message}`);
        // The same bytes would be refused again after every reconnect (SECURITY.md R2-11).
        if (message.code === 'invalid_message' && message.messageId) {
          this.options.outbox.remove(message.messageId);
          this.options.onRefused?.(message.messageId);
        }
        return;
    }
  }
}

/** A websocket frame as text: ws hands over one Buffer, fragments, or an ArrayBuffer. */
function messageText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) {
    return data.toString('utf8');
  }
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}
