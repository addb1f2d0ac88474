import type { FastifyBaseLogger } from 'fastify';
import { AGENT_CLOSE } from '@outpost/contract/agent-protocol';
import type { AgentConnection } from './agent-connection';
import type { Bus } from './bus';
import type { CommandDelivery } from './command-queue';

// The parts of the agent hub (agent-hub.ts) that do not look at a message: the command poll
// behind the bus's doorbell and the bus topics that reach a device's connection.

/** devices per query of the command poll */
const COMMAND_POLL_BATCH = 1000;

/**
 * The doorbell travels on the bus; with Redis away it is lost. The database is the queue, so
 * every instance also polls it for the agents it holds and offers what is still pending (issue
 * 14: commands issued while Redis is down still arrive). The in-process bus loses nothing, so a
 * single instance without Redis does not poll (at 10,000 agents the poll was 10,000 ids every 3
 * s, work on the event loop that delayed live updates); with Redis the ids go a batch at a time.
 * Returns the timer, or null when there is no poll.
 */
export function startCommandPoll(deps: {
  bus: Bus;
  commandQueue: CommandDelivery;
  local: Map<number, AgentConnection>;
  log: FastifyBaseLogger;
  intervalMs: number;
}): NodeJS.Timeout | null {
  const { bus, commandQueue, local, log } = deps;
  const pollCommands = async () => {
    const held = [...local.values()].filter((c) => c.hasHello).map((c) => c.device.id);
    for (let i = 0; i < held.length; i += COMMAND_POLL_BATCH) {
      for (const id of await commandQueue.pendingFor(held.slice(i, i + COMMAND_POLL_BATCH))) {
        const conn = local.get(id);
        if (conn?.hasHello) {
          conn.enqueue(() => commandQueue.offer(conn));
        }
      }
    }
  };
  const commandPoll =
    bus.kind === 'memory'
      ? null
      : setInterval(() => {
          pollCommands().catch((err: unknown) => log.warn({ err }, 'command poll failed'));
        }, deps.intervalMs);
  commandPoll?.unref();
  return commandPoll;
}

/** The bus topics that reach the connections of this instance; returns their unsubscribers. */
export function subscribeAgentTopics(
  bus: Bus,
  local: Map<number, AgentConnection>,
  commandQueue: CommandDelivery,
): (() => void)[] {
  return [
    bus.subscribe('agent.doorbell', ({ deviceIds }) => {
      for (const deviceId of deviceIds) {
        const conn = local.get(deviceId);
        if (conn?.hasHello) {
          conn.enqueue(() => commandQueue.offer(conn));
        }
      }
    }),
    bus.subscribe('agent.connected', ({ deviceId, connectionId }) => {
      const conn = local.get(deviceId);
      if (conn && conn.connectionId !== connectionId) {
        local.delete(deviceId);
        conn.close(AGENT_CLOSE.replaced, 'Replaced by a newer connection');
      }
    }),
    bus.subscribe('agent.disconnect', ({ deviceId, reason }) => {
      local.get(deviceId)?.close(AGENT_CLOSE.deviceRemoved, reason.slice(0, 100));
    }),
  ];
}
