import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  AGENT_CLOSE,
  AGENT_PROTOCOL_VERSION,
  SUPPORTED_AGENT_PROTOCOL_VERSIONS,
} from '@outpost/contract/agent-protocol';
import type { AgentMessage, CommandResultMessage } from '@outpost/contract/agent-protocol';
import { deviceKey } from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import { AgentConnection } from './agent-connection';
import type { HandledMessage, MessageLimits } from './agent-connection';
import type { Bus } from './bus';
import type { CommandDelivery } from './command-queue';
import { createGate } from './gate';
import type { Gate } from './gate';
import { startCommandPoll, subscribeAgentTopics } from './agent-hub-topics';
import { TokenBucket } from './rate-limit';
import type { DeviceChange, DeviceRef, DeviceState } from './device-state';
import { rawText } from './portal-socket';
import type { PortalHub } from './portal-socket';
import { createPresence } from './presence';
import { afterWelcome, subscribeChecksTopic } from './agent-monitoring';
import type { MonitoringReports } from './agent-monitoring';
import { remoteConnectionClosed, sendRemotePolicy, subscribeRemoteTopics } from './agent-remote';
import type { RemoteReports } from './agent-remote';
import type { Presence, PresenceOptions } from './presence';
import { createTurns } from './turns';
import type { Turns } from './turns';

// The agents connected to this instance (docs/product/agent-protocol.md): one AgentConnection per device, the
// message switch, and the bus topics that reach a device wherever its socket is. Authentication
// happens before the upgrade (agent-socket.routes.ts); commands come from the command queue.

/** Default interval of the command poll behind the bus's doorbell. */
export const COMMAND_POLL_MS = 3000;
/** Default number of agents between their hello and their first inventory at once (gate.ts). */
export const HELLOS_IN_FLIGHT = 32;

export type AgentHubOptions = PresenceOptions &
  MessageLimits & {
    /** how long a new socket may stay silent before its hello */
    helloTimeoutMs?: number;
    /** how often the database is polled for commands the doorbell did not announce */
    commandPollMs?: number;
    /** agents between their hello and their first inventory at once (gate.ts) */
    hellosInFlight?: number;
    /** how long a welcomed agent may keep its place waiting for its first inventory (default 0) */
    helloHoldMs?: number;
    /** the upgrade budget's rate and burst, which also pace the hellos (below) */
    upgradesPerSecond?: number;
    upgradeBurst?: number;
  };

export type AgentHub = {
  /** An authenticated socket was upgraded. */
  accept(socket: WebSocket, device: DeviceRef, ip: string): void;
  isConnectedHere(deviceId: number): boolean;
  readonly connectedHere: number;
  /** so many hellos wait their turn that new upgrades are refused for now (gate.ts) */
  readonly isBusy: boolean;
  /** seconds until a refused agent's turn (turns.ts), which it takes */
  busyRetryAfterSeconds(): number;
  close(): void;
};

type HelloMessage = Extract<AgentMessage, { type: 'hello' }>;

/** What the message handlers of the hub work with (built once by createAgentHub). */
type HubContext = {
  deviceState: DeviceState;
  log: FastifyBaseLogger;
  bus: Bus;
  commandQueue: CommandDelivery;
  monitoring: MonitoringReports;
  remote: RemoteReports;
  options: AgentHubOptions;
  presence: Presence;
  gate: Gate;
  /** the turns of agents refused while the queue is long; told of each hello recorded */
  turns: Turns;
  pace: () => Promise<void>;
  publishChange: (change: DeviceChange | null) => Promise<void>;
  /** The device's connection on this instance, and still open. */
  isCurrent: (conn: AgentConnection) => boolean;
  /**
   * Hellos of one device are recorded one at a time. A connection replaced while its hello was
   * being recorded (the agent reconnected at once) stops there: it must neither announce itself
   * (that would close the newer connection as replaced) nor leave its id on the device row last
   * (the newer connection's hello, queued behind it, records it again).
   */
  helloChains: Map<number, Promise<void>>;
};

export function createAgentHub(deps: {
  deviceState: DeviceState;
  bus: Bus;
  portalHub: PortalHub;
  commandQueue: CommandDelivery;
  monitoring: MonitoringReports;
  remote: RemoteReports;
  log: FastifyBaseLogger;
  options: AgentHubOptions;
}): AgentHub {
  const { deviceState, bus, portalHub, commandQueue, monitoring, remote, log, options } = deps;
  const local = new Map<number, AgentConnection>();
  const helloTimeoutMs = options.helloTimeoutMs ?? Math.max(10_000, options.heartbeatIntervalMs);
  let isClosing = false;
  // Upgrades are refused before any lookup only once more hellos wait than the server records in
  // 10 s at the budget's rate (agents wait 30 s for their welcome): with the budget and the pace
  // below, the queue grows only while the server records fewer hellos than the budget admits, and
  // a tighter bound (eight per place) refused the same agents every 2 s by the thousand.
  const inFlight = options.hellosInFlight ?? HELLOS_IN_FLIGHT;
  // and never more than the hellos recorded here in 10 s, as measured (turns.ts)
  const budgetBacklog = (options.upgradesPerSecond ?? 0) * 10;
  const turns = createTurns({ initialRate: options.upgradesPerSecond ?? 50, minSeconds: 2, maxSeconds: 60 });
  const gate = createGate(inFlight, () => Math.max(inFlight * 8, Math.min(budgetBacklog, turns.rate * 10)));
  const pace = createHelloPace(options.upgradesPerSecond, options.upgradeBurst);
  const onConnectionError = (conn: AgentConnection, err: unknown) =>
    log.error({ err, deviceId: conn.device.id }, 'agent message failed');

  const publishChange = async (change: DeviceChange | null) => {
    if (!change) {
      return;
    }
    await portalHub.publish({
      tenantId: change.ref.tenantId,
      siteId: change.ref.siteId,
      key: deviceKey(change.ref.deviceGuid),
      event: { type: 'device_update', payload: change.update },
    });
  };

  const presence = createPresence({
    deviceState,
    log,
    options,
    connections: () => local.values(),
    publishChange,
  });
  const commandPoll = startCommandPoll({
    bus,
    commandQueue,
    local,
    log,
    intervalMs: options.commandPollMs ?? COMMAND_POLL_MS,
  });
  const unsubscribers = [
    ...subscribeAgentTopics(bus, local, commandQueue),
    subscribeChecksTopic(bus, local, monitoring),
    ...subscribeRemoteTopics(bus, local, remote, log),
  ];

  const ctx: HubContext = {
    deviceState,
    log,
    bus,
    commandQueue,
    monitoring,
    remote,
    options,
    presence,
    gate,
    turns,
    pace,
    publishChange,
    isCurrent: (conn) => local.get(conn.device.id) === conn && conn.isOpen,
    helloChains: new Map(),
  };
  const onMessage = (conn: AgentConnection, m: HandledMessage) => handleMessage(ctx, conn, m);

  function accept(socket: WebSocket, device: DeviceRef, ip: string) {
    if (isClosing) {
      socket.close(1013, 'Try again later');
      return;
    }
    const conn = new AgentConnection(device, socket, ip, options, onMessage, onConnectionError);
    const previous = local.get(device.id);
    local.set(device.id, conn);
    previous?.close(AGENT_CLOSE.replaced, 'Replaced by a newer connection');
    conn.expectHello(helloTimeoutMs);

    socket.on('message', (data, isBinary) => {
      conn.receive(rawText(data), isBinary);
    });
    socket.on('error', (err) => log.warn({ err: err.message, deviceId: device.id }, 'agent socket error'));
    socket.on('close', (code) => {
      // Work the agent queued and we have not started is dropped with its socket.
      conn.discardMessages();
      if (local.get(device.id) === conn) {
        local.delete(device.id);
      }
      // its terminal sessions end now, not after the presence grace (agent-remote.ts)
      remoteConnectionClosed(bus, conn, log);
      if (conn.hasHello && !isClosing) {
        // Offline only after the grace period, and only if no newer connection took over.
        presence.closed(conn, code);
      }
    });
  }

  return {
    accept,
    isConnectedHere: (deviceId) => local.get(deviceId)?.hasHello === true,
    get connectedHere() {
      return local.size;
    },
    get isBusy() {
      return gate.isBusy;
    },
    busyRetryAfterSeconds: () => turns.next(),
    close() {
      isClosing = true;
      if (commandPoll) {
        clearInterval(commandPoll);
      }
      for (const u of unsubscribers) {
        u();
      }
      presence.close();
      for (const conn of local.values()) {
        conn.close(1001, 'Server shutting down');
      }
      local.clear();
    },
  };
}

/**
 * Hellos are recorded at the upgrade budget's rate at most. The budget admits sockets at that
 * rate, but a server that fell behind (its start, a stall) then records the backlog as fast as
 * it can, and the fleet was welcomed in bursts (83 welcomes in 100 ms against a mean of 25);
 * now the backlog is welcomed at the budget's pace. One hello waits for the pace at a time, in
 * arrival order. Without a rate the returned function does not wait.
 */
function createHelloPace(rate: number | undefined, burst: number | undefined): () => Promise<void> {
  const bucket = rate ? new TokenBucket(rate, burst ?? 1) : null;
  let paced: Promise<void> = Promise.resolve();
  return () => {
    if (!bucket || !rate) {
      return paced;
    }
    paced = paced.then(async () => {
      while (!bucket.take()) {
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(1000 / rate)));
      }
    });
    return paced;
  };
}

async function handleResult(commandQueue: CommandDelivery, conn: AgentConnection, m: CommandResultMessage) {
  const outcome = { status: m.status, result: m.result ?? null, error: m.error ?? null };
  const verdict = await commandQueue.complete(conn.device, m.commandId, outcome);
  if (verdict === 'unknown') {
    conn.sendError('unknown_command', messages.agentUnknownCommand, m.messageId);
  }
  conn.send({ type: 'ack', messageId: m.messageId });
}

async function handleHello(ctx: HubContext, conn: AgentConnection, m: HelloMessage) {
  if (!SUPPORTED_AGENT_PROTOCOL_VERSIONS.includes(m.protocolVersion)) {
    conn.close(AGENT_CLOSE.unsupportedVersion, messages.agentUnsupportedProtocol(m.protocolVersion));
    return;
  }
  const { helloChains } = ctx;
  await ctx.pace();
  const leave = await ctx.gate.enter();
  const id = conn.device.id;
  const run = (helloChains.get(id) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => recordHello(ctx, conn, m));
  helloChains.set(id, run);
  try {
    await run;
  } finally {
    if (helloChains.get(id) === run) {
      helloChains.delete(id);
    }
    if (conn.hasHello) {
      ctx.turns.passed();
    }
    // With a hold, a welcomed agent keeps its place until its first inventory is stored. Off by
    // default: the wait for the agent's answer then held places the server could have used (a
    // 5,000-agent return took twice as long with a 2 s hold as without; docs/decisions/2026-11-26-fleet-scale.md).
    const holdMs = ctx.options.helloHoldMs ?? 0;
    if (holdMs > 0 && conn.hasHello && conn.isOpen) {
      conn.holdGate(leave, holdMs);
    } else {
      leave();
    }
  }
}

async function recordHello(ctx: HubContext, conn: AgentConnection, m: HelloMessage) {
  if (conn.hasHello || !ctx.isCurrent(conn)) {
    return;
  }
  const change = await ctx.deviceState.markConnected(conn.device.id, conn.connectionId, m, conn.ip);
  if (!change) {
    conn.close(AGENT_CLOSE.deviceRemoved, 'Device removed');
    return;
  }
  if (!ctx.isCurrent(conn)) {
    return;
  }
  conn.helloDone();
  ctx.presence.written(conn.device.id); // markConnected wrote last_seen
  await ctx.bus.publish('agent.connected', { deviceId: conn.device.id, connectionId: conn.connectionId });
  conn.send({
    type: 'welcome',
    protocolVersion: AGENT_PROTOCOL_VERSION,
    deviceGuid: conn.device.deviceGuid,
    heartbeatIntervalMs: ctx.options.heartbeatIntervalMs,
    serverTime: new Date().toISOString(),
    inventoryCurrent: change.inventoryCurrent,
  });
  await ctx.publishChange(change);
  await ctx.commandQueue.offer(conn);
  await afterWelcome(ctx.monitoring, conn, m, ctx.log);
  await sendRemotePolicy(ctx.remote, conn);
}

async function handleMessage(ctx: HubContext, conn: AgentConnection, m: HandledMessage) {
  const { deviceState, presence, commandQueue, publishChange } = ctx;
  if (!conn.hasHello && m.type !== 'hello') {
    conn.sendError('hello_required', messages.agentHelloRequired);
    conn.close(AGENT_CLOSE.protocolError, messages.agentHelloRequired);
    return;
  }
  switch (m.type) {
    case 'hello':
      await handleHello(ctx, conn, m);
      return;
    case 'heartbeat':
      presence.touch(conn.device.id);
      return;
    case 'inventory': {
      const change = await deviceState.applyInventory(conn.device, m);
      conn.send({ type: 'ack', messageId: m.messageId });
      conn.leftGate();
      await publishChange(change);
      return;
    }
    case 'activity': {
      const change = await deviceState.applyActivity(conn.device.id, m);
      conn.send({ type: 'ack', messageId: m.messageId });
      if (change?.statusChanged) {
        await publishChange(change);
      }
      return;
    }
    case 'fault': {
      // the server log keeps what the agent reported (its memory limit, docs/agent.md "Footprint");
      // the device row keeps it until the agent's next hello
      if (m.active) {
        ctx.log.warn({ deviceId: conn.device.id, fault: m.message }, 'agent fault');
      }
      const change = await deviceState.applyFault(conn.device.id, m);
      if (change?.statusChanged) {
        await publishChange(change);
      }
      return;
    }
    case 'command_result':
      presence.touch(conn.device.id);
      await handleResult(commandQueue, conn, m);
      return;
    case 'check_results':
      presence.touch(conn.device.id);
      await ctx.monitoring.checkResults(conn.device, m);
      conn.ack([m.messageId]);
      return;
    case 'metrics':
      presence.touch(conn.device.id);
      ctx.monitoring.metrics(conn.device, m);
      return;
    case 'terminal_started':
    case 'terminal_output':
    case 'terminal_exit':
    case 'fs_list_result':
    case 'file_status':
      // live traffic: no ack; the module publishes it on `remote.reply` (agent-remote.ts)
      if (conn.takesRemote) {
        await ctx.remote.fromAgent(conn.device, m);
      }
      return;
    case 'progress_run':
      // a run of step_progress is written in one batch and acknowledged together
      presence.touch(conn.device.id);
      for (const r of await commandQueue.stepProgress({ device: conn.device, messages: m.messages })) {
        conn.sendError('invalid_message', `${messages.agentInvalidMessage}: ${r.reason}`, r.messageId);
      }
      // refused messages too: sending them again would be refused again (SECURITY.md R2-13)
      conn.ack(m.messages.map((p) => p.messageId));
      return;
  }
}
