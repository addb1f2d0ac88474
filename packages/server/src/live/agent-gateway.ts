import crypto from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { eq } from 'drizzle-orm';
import {
  AGENT_CLOSE,
  AGENT_DEVICE_HEADER,
  AGENT_PROTOCOL_VERSION,
  AgentMessage,
  SUPPORTED_AGENT_PROTOCOL_VERSIONS,
} from '@outpost/contract/agent-protocol';
import type {
  AgentCommandKind,
  AgentErrorMessage,
  CommandResultMessage,
  ServerToAgentMessage,
  StepProgressMessage,
} from '@outpost/contract/agent-protocol';
import { deviceKey } from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import type { Db } from '../db/client';
import { devices } from '../db/schema/index';
import { secretMatches } from '../modules/agents/agent-secrets';
import {
  UUID,
  completeCommand,
  findCommand,
  insertCommand,
  markSent,
  unfinishedCommands,
} from '../modules/agents/device-commands.queries';
import type { QueueCommandInput } from '../modules/agents/device-commands.queries';
import type { Bus, BusTopics } from './bus';
import {
  applyActivity,
  applyFault,
  applyInventory,
  markConnected,
  markDisconnected,
  sweepStale,
  touchLastSeen,
} from './device-state';
import type { DeviceChange, DeviceRef } from './device-state';
import type { PortalHub } from './portal-socket';

// WS /api/agent/ws (ARCHITECTURE §4). The device secret is checked before the upgrade, so an
// unauthenticated client never gets a socket. Upgrades pass a token bucket so a reconnect storm is
// spread out (agents back off with full jitter when refused).

export type GatewayOptions = {
  heartbeatIntervalMs: number;
  presenceGraceMs: number;
  upgradesPerSecond: number;
  upgradeBurst: number;
  /** how long a new socket may stay silent before its hello */
  helloTimeoutMs?: number;
};

export type CommandOutcome = {
  commandId: string;
  status: 'completed' | 'failed' | 'timeout';
  result: Record<string, unknown> | null;
  error: string | null;
};

export type CommandResultEvent = {
  device: DeviceRef;
  commandId: string;
  kind: AgentCommandKind;
  status: 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: string | null;
};

export type StepProgressEvent = { device: DeviceRef; message: StepProgressMessage };

export type AgentGateway = {
  /**
   * Queue a command for a device and ring its doorbell. Pass `tx` to insert the row in your own
   * transaction (with its audit entry); then call dispatch(deviceId) after the commit.
   */
  sendCommand(input: QueueCommandInput): Promise<{ commandId: string }>;
  queueCommand(tx: Pick<Db, 'insert'>, input: QueueCommandInput): Promise<string>;
  dispatch(deviceId: number): Promise<void>;
  /** Resolves when the command's result arrives on any instance, or with 'timeout'. */
  waitForResult(commandId: string, timeoutMs: number): Promise<CommandOutcome>;
  /** Later modules react to results and step progress (deployments, device actions). */
  onCommandResult(handler: (event: CommandResultEvent) => Promise<void> | void): void;
  onStepProgress(handler: (event: StepProgressEvent) => Promise<void> | void): void;
  isConnectedHere(deviceId: number): boolean;
  readonly connectedHere: number;
};

type AuthedDevice = DeviceRef;

const MAX_INVALID_MESSAGES = 10;

/** A token bucket: `rate` admissions per second, at most `burst` at once. */
export function createTokenBucket(rate: number, burst: number, now: () => number = Date.now) {
  let tokens = burst;
  let last = now();
  return {
    take(): boolean {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * rate);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    },
    retryAfterSeconds: () => Math.max(1, Math.ceil(1 / rate)),
  };
}

class AgentConnection {
  readonly connectionId = crypto.randomUUID();
  hasHello = false;
  invalidCount = 0;
  lastMessageAt = Date.now();
  /** commands already pushed on this socket; a new socket gets them again (re-offer) */
  readonly offered = new Set<string>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly device: AuthedDevice,
    readonly socket: WebSocket,
    readonly ip: string,
  ) {}

  send(message: ServerToAgentMessage) {
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  /** Messages of one agent are handled one at a time, in order. */
  enqueue(task: () => Promise<void>) {
    this.chain = this.chain.then(task, task);
  }
}

export function createAgentGateway(deps: {
  app: FastifyInstance;
  db: Db;
  bus: Bus;
  hub: PortalHub;
  log: FastifyBaseLogger;
  options: GatewayOptions;
}): AgentGateway & { close(): Promise<void> } {
  const { db, bus, hub, log, options } = deps;
  const local = new Map<number, AgentConnection>();
  const authed = new WeakMap<FastifyRequest, AuthedDevice>();
  const graceTimers = new Map<string, NodeJS.Timeout>();
  const touched = new Set<number>();
  const waiters = new Map<string, Set<(o: CommandOutcome) => void>>();
  const resultHandlers: ((e: CommandResultEvent) => Promise<void> | void)[] = [];
  const stepHandlers: ((e: StepProgressEvent) => Promise<void> | void)[] = [];
  const bucket = createTokenBucket(options.upgradesPerSecond, options.upgradeBurst);
  const helloTimeoutMs = options.helloTimeoutMs ?? Math.max(10_000, options.heartbeatIntervalMs);
  const silentLimitMs = options.heartbeatIntervalMs * 2 + options.presenceGraceMs;
  let isClosing = false;

  const publishChange = async (change: DeviceChange | null) => {
    if (!change) {
      return;
    }
    await hub.publish({
      tenantId: change.ref.tenantId,
      siteId: change.ref.siteId,
      key: deviceKey(change.ref.deviceGuid),
      event: { type: 'device_update', payload: change.update },
    });
  };

  // ---------- bus ----------

  const unsubscribers = [
    bus.subscribe('agent.doorbell', ({ deviceId }) => {
      const conn = local.get(deviceId);
      if (conn?.hasHello) {
        conn.enqueue(() => offerCommands(conn));
      }
    }),
    bus.subscribe('agent.connected', ({ deviceId, connectionId }) => {
      const conn = local.get(deviceId);
      if (conn && conn.connectionId !== connectionId) {
        local.delete(deviceId);
        conn.socket.close(AGENT_CLOSE.replaced, 'Replaced by a newer connection');
      }
    }),
    bus.subscribe('agent.disconnect', ({ deviceId, reason }) => {
      const conn = local.get(deviceId);
      if (conn) {
        conn.socket.close(AGENT_CLOSE.deviceRemoved, reason.slice(0, 100));
      }
    }),
    bus.subscribe('agent.result', (m: BusTopics['agent.result']) => {
      const set = waiters.get(m.commandId);
      if (set) {
        waiters.delete(m.commandId);
        for (const resolve of set) {
          resolve({ commandId: m.commandId, status: m.status, result: m.result, error: m.error });
        }
      }
    }),
  ];

  // ---------- timers: heartbeat flush, silent sockets, stale sweep ----------

  const flushEvery = Math.min(5_000, Math.max(50, Math.floor(options.heartbeatIntervalMs / 2)));
  const flushTimer = setInterval(() => {
    const ids = [...touched];
    touched.clear();
    touchLastSeen(db, ids).catch((err: unknown) => log.error({ err }, 'could not record heartbeats'));
  }, flushEvery);
  const watchdog = setInterval(
    () => {
      const now = Date.now();
      for (const conn of local.values()) {
        if (now - conn.lastMessageAt > silentLimitMs) {
          log.info({ deviceId: conn.device.id }, 'agent silent past its heartbeats and grace; closing');
          conn.socket.terminate();
        }
      }
    },
    Math.max(50, Math.floor(options.heartbeatIntervalMs / 2)),
  );
  // Devices whose instance died keep status online; whichever instance sweeps first sets them offline.
  const staleAfterMs = silentLimitMs + flushEvery + 1_000;
  const sweeper = setInterval(
    () => {
      sweepStale(db, staleAfterMs)
        .then(async (changes) => {
          for (const change of changes) {
            await publishChange(change);
          }
        })
        .catch((err: unknown) => log.error({ err }, 'presence sweep failed'));
    },
    Math.min(60_000, Math.max(1_000, options.presenceGraceMs)),
  );
  for (const t of [flushTimer, watchdog, sweeper]) {
    t.unref();
  }

  // ---------- commands ----------

  async function offerCommands(conn: AgentConnection) {
    const rows = await unfinishedCommands(db, conn.device.id);
    const now = new Date();
    const sent: string[] = [];
    for (const row of rows) {
      if (row.expiresAt && row.expiresAt <= now) {
        const ended = await completeCommand(db, conn.device.id, row.id, {
          status: 'failed',
          result: null,
          error: 'The command expired before the device ran it',
        });
        if (ended) {
          await bus.publish('agent.result', {
            commandId: row.id,
            deviceId: conn.device.id,
            kind: row.kind,
            status: 'failed',
            result: null,
            error: ended.error,
          });
        }
        continue;
      }
      if (conn.offered.has(row.id)) {
        continue;
      }
      conn.offered.add(row.id);
      conn.send({
        type: 'command',
        commandId: row.id,
        issuedAt: row.createdAt.toISOString(),
        command: row.payload,
      });
      sent.push(row.id);
    }
    await markSent(db, sent);
  }

  async function handleResult(conn: AgentConnection, m: CommandResultMessage) {
    if (!UUID.test(m.commandId)) {
      sendError(conn, 'unknown_command', messages.agentUnknownCommand, m.messageId);
      conn.send({ type: 'ack', messageId: m.messageId });
      return;
    }
    const outcome = { status: m.status, result: m.result ?? null, error: m.error ?? null };
    const row = await completeCommand(db, conn.device.id, m.commandId, outcome);
    if (!row) {
      // Already completed (a resend) is fine; a command of another device is never touched.
      const existing = await findCommand(db, m.commandId);
      if (!existing || existing.deviceId !== conn.device.id) {
        sendError(conn, 'unknown_command', messages.agentUnknownCommand, m.messageId);
      }
      conn.send({ type: 'ack', messageId: m.messageId });
      return;
    }
    conn.send({ type: 'ack', messageId: m.messageId });
    await bus.publish('agent.result', {
      commandId: row.id,
      deviceId: conn.device.id,
      kind: row.kind,
      ...outcome,
    });
    for (const handler of resultHandlers) {
      try {
        await handler({ device: conn.device, commandId: row.id, kind: row.kind, ...outcome });
      } catch (err) {
        log.error({ err, commandId: row.id }, 'command result handler failed');
      }
    }
  }

  // ---------- messages ----------

  function sendError(
    conn: AgentConnection,
    code: AgentErrorMessage['code'],
    message: string,
    messageId?: string,
  ) {
    conn.send({ type: 'error', code, message, ...(messageId && { messageId }) });
  }

  function rejectInvalid(conn: AgentConnection, detail: string) {
    conn.invalidCount += 1;
    sendError(conn, 'invalid_message', `${messages.agentInvalidMessage}: ${detail}`);
    if (conn.invalidCount >= MAX_INVALID_MESSAGES) {
      conn.socket.close(AGENT_CLOSE.protocolError, 'Too many invalid messages');
    }
  }

  async function handleMessage(conn: AgentConnection, raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      rejectInvalid(conn, 'not JSON');
      return;
    }
    const parsed = AgentMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      rejectInvalid(conn, issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid');
      return;
    }
    const m = parsed.data;
    if (!conn.hasHello && m.type !== 'hello') {
      sendError(conn, 'hello_required', messages.agentHelloRequired);
      conn.socket.close(AGENT_CLOSE.protocolError, messages.agentHelloRequired);
      return;
    }
    touched.add(conn.device.id);
    switch (m.type) {
      case 'hello': {
        if (!SUPPORTED_AGENT_PROTOCOL_VERSIONS.includes(m.protocolVersion)) {
          conn.socket.close(
            AGENT_CLOSE.unsupportedVersion,
            messages.agentUnsupportedProtocol(m.protocolVersion),
          );
          return;
        }
        if (conn.hasHello) {
          return;
        }
        const change = await markConnected(db, conn.device.id, conn.connectionId, m, conn.ip);
        if (!change) {
          conn.socket.close(AGENT_CLOSE.deviceRemoved, 'Device removed');
          return;
        }
        conn.hasHello = true;
        await bus.publish('agent.connected', { deviceId: conn.device.id, connectionId: conn.connectionId });
        conn.send({
          type: 'welcome',
          protocolVersion: AGENT_PROTOCOL_VERSION,
          deviceGuid: conn.device.deviceGuid,
          heartbeatIntervalMs: options.heartbeatIntervalMs,
          serverTime: new Date().toISOString(),
        });
        await publishChange(change);
        await offerCommands(conn);
        return;
      }
      case 'heartbeat':
        return;
      case 'inventory': {
        const change = await applyInventory(db, conn.device.id, m);
        conn.send({ type: 'ack', messageId: m.messageId });
        await publishChange(change);
        return;
      }
      case 'activity': {
        const change = await applyActivity(db, conn.device.id, m);
        conn.send({ type: 'ack', messageId: m.messageId });
        if (change?.statusChanged) {
          await publishChange(change);
        }
        return;
      }
      case 'fault': {
        const change = await applyFault(db, conn.device.id, m);
        if (change?.statusChanged) {
          await publishChange(change);
        }
        return;
      }
      case 'command_result':
        await handleResult(conn, m);
        return;
      case 'step_progress': {
        for (const handler of stepHandlers) {
          try {
            await handler({ device: conn.device, message: m });
          } catch (err) {
            log.error({ err, commandId: m.commandId }, 'step progress handler failed');
          }
        }
        conn.send({ type: 'ack', messageId: m.messageId });
        return;
      }
    }
  }

  // ---------- the route ----------

  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    if (!bucket.take()) {
      return reply
        .status(503)
        .header('retry-after', String(bucket.retryAfterSeconds()))
        .send({ success: false, error: messages.agentTooManyConnections, code: 'TOO_MANY_CONNECTIONS' });
    }
    const guid = request.headers[AGENT_DEVICE_HEADER];
    const auth = request.headers.authorization;
    const secret = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (typeof guid !== 'string' || !secret) {
      return reply
        .status(401)
        .send({ success: false, error: messages.agentAuthMissing, code: 'AGENT_AUTH_MISSING' });
    }
    const [row] = UUID.test(guid)
      ? await db
          .select({
            id: devices.id,
            tenantId: devices.tenantId,
            siteId: devices.siteId,
            deviceGuid: devices.deviceGuid,
            secretHash: devices.secretHash,
          })
          .from(devices)
          .where(eq(devices.deviceGuid, guid.toLowerCase()))
          .limit(1)
      : [];
    if (!row || !secretMatches(secret, row.secretHash)) {
      request.log.info({ guid }, 'agent authentication failed');
      return reply
        .status(401)
        .send({ success: false, error: messages.agentAuthFailed, code: 'AGENT_AUTH_FAILED' });
    }
    authed.set(request, {
      id: row.id,
      tenantId: row.tenantId,
      siteId: row.siteId,
      deviceGuid: row.deviceGuid,
    });
  }

  function onSocket(socket: WebSocket, request: FastifyRequest) {
    const device = authed.get(request);
    if (!device || isClosing) {
      socket.close(1013, 'Try again later');
      return;
    }
    const conn = new AgentConnection(device, socket, request.ip);
    const previous = local.get(device.id);
    local.set(device.id, conn);
    if (previous) {
      previous.socket.close(AGENT_CLOSE.replaced, 'Replaced by a newer connection');
    }
    const helloTimer = setTimeout(() => {
      if (!conn.hasHello) {
        socket.close(AGENT_CLOSE.helloTimeout, messages.agentHelloRequired);
      }
    }, helloTimeoutMs);
    helloTimer.unref();

    socket.on('message', (data, isBinary) => {
      conn.lastMessageAt = Date.now();
      if (isBinary) {
        rejectInvalid(conn, 'binary frames are not accepted');
        return;
      }
      const raw = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString('utf8');
      conn.enqueue(async () => {
        try {
          await handleMessage(conn, raw);
        } catch (err) {
          log.error({ err, deviceId: device.id }, 'agent message failed');
          sendError(conn, 'internal_error', messages.internalError);
        }
      });
    });
    socket.on('error', (err) => log.warn({ err: err.message, deviceId: device.id }, 'agent socket error'));
    socket.on('close', (code) => {
      clearTimeout(helloTimer);
      if (local.get(device.id) === conn) {
        local.delete(device.id);
      }
      if (!conn.hasHello || isClosing) {
        return;
      }
      // Offline only after the grace period, and only if no newer connection took over. A socket
      // closed for silence has already had its grace; an agent that says goodbye (1000: stopping
      // for a restart or shutdown) is offline at once.
      const wasSilent = Date.now() - conn.lastMessageAt > silentLimitMs;
      const isGoodbye = code === 1000;
      const graceMs = wasSilent || isGoodbye ? 0 : options.presenceGraceMs;
      const timer = setTimeout(() => {
        graceTimers.delete(conn.connectionId);
        conn.enqueue(async () => {
          try {
            await publishChange(await markDisconnected(db, device.id, conn.connectionId));
          } catch (err) {
            log.error({ err, deviceId: device.id }, 'could not mark the device offline');
          }
        });
      }, graceMs);
      graceTimers.set(conn.connectionId, timer);
    });
  }

  deps.app.get(
    '/api/agent/ws',
    {
      websocket: true,
      onRequest: authenticate,
      schema: { hide: true },
    },
    onSocket,
  );

  return {
    async sendCommand(input) {
      const commandId = await insertCommand(db, input);
      await this.dispatch(input.deviceId);
      return { commandId };
    },
    queueCommand: (tx, input) => insertCommand(tx, input),
    async dispatch(deviceId) {
      await bus.publish('agent.doorbell', { deviceId });
    },
    waitForResult(commandId, timeoutMs) {
      return new Promise<CommandOutcome>((resolve) => {
        let isDone = false;
        const finish = (o: CommandOutcome) => {
          if (isDone) {
            return;
          }
          isDone = true;
          clearTimeout(timer);
          waiters.get(commandId)?.delete(finish);
          resolve(o);
        };
        const fromRow = async (fallback: CommandOutcome['status'] | null) => {
          const row = UUID.test(commandId) ? await findCommand(db, commandId) : null;
          if (row && (row.status === 'completed' || row.status === 'failed')) {
            finish({ commandId, status: row.status, result: row.result, error: row.error });
          } else if (fallback) {
            finish({ commandId, status: fallback, result: null, error: null });
          }
        };
        const timer = setTimeout(() => {
          fromRow('timeout').catch(() => finish({ commandId, status: 'timeout', result: null, error: null }));
        }, timeoutMs);
        let set = waiters.get(commandId);
        if (!set) {
          set = new Set();
          waiters.set(commandId, set);
        }
        set.add(finish);
        // The result may have arrived before we started waiting.
        fromRow(null).catch((err: unknown) => log.error({ err }, 'could not read a command'));
      });
    },
    onCommandResult(handler) {
      resultHandlers.push(handler);
    },
    onStepProgress(handler) {
      stepHandlers.push(handler);
    },
    isConnectedHere: (deviceId) => local.get(deviceId)?.hasHello === true,
    get connectedHere() {
      return local.size;
    },
    async close() {
      isClosing = true;
      for (const u of unsubscribers) {
        u();
      }
      for (const t of [flushTimer, watchdog, sweeper]) {
        clearInterval(t);
      }
      for (const t of graceTimers.values()) {
        clearTimeout(t);
      }
      for (const conn of local.values()) {
        conn.socket.close(1001, 'Server shutting down');
      }
      local.clear();
    },
  };
}
