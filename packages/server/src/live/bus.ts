import { EventEmitter } from 'node:events';
import type {
  AgentCommandKind,
  AgentRemoteMessage,
  CommandStatus,
  ServerRemoteMessage,
} from '@outpost/contract/agent-protocol';
import type { PortalEvent, SubscriptionKey } from '@outpost/contract/live';

// The event bus (docs/product/agent-protocol.md#several-instances): in-process by default, Redis pub/sub with REDIS_URL, so
// several server instances share live updates and agent commands reach whichever instance holds
// the agent's socket. The bus is only a doorbell: the database stays the source of truth.

export type BusTopics = {
  /** a live event for portal sockets subscribed to `key` */
  portal: {
    tenantId: number;
    /** the device's site, so site-scoped users get only their sites; omitted when not site-bound */
    siteId?: number | null;
    key: SubscriptionKey;
    event: PortalEvent;
  };
  /** these members' sessions ended (sign-out elsewhere, removal, role or site change): re-check */
  'portal.sessions': { userIds: number[] };
  /** these devices have unfinished commands: the instances holding their sockets send them */
  'agent.doorbell': { deviceIds: number[] };
  /** a command reached its end: waiters on any instance resolve */
  'agent.result': {
    commandId: string;
    deviceId: number;
    kind: AgentCommandKind;
    status: Extract<CommandStatus, 'completed' | 'failed'>;
    result: Record<string, unknown> | null;
    error: string | null;
  };
  /** an agent (re)connected somewhere: other instances drop their stale socket for it */
  'agent.connected': { deviceId: number; connectionId: string };
  /** a device was removed or its secret rotated: whoever holds its socket closes it */
  'agent.disconnect': { deviceId: number; reason: string };
  /** the check sets of these devices changed: their agents get the new set (agent-monitoring.ts) */
  'agent.checks': { deviceIds: number[] };
  /** a remote access message for a device's agent: the instance holding its socket sends it (agent-remote.ts) */
  'agent.remote': { deviceId: number; message: ServerRemoteMessage };
  /** a tenant's remote access settings changed: its agents get the new policy */
  'agent.remote_policy': { tenantId: number };
  /** the socket of an agent that takes remote access closed: its terminal sessions end */
  'agent.remote_closed': { deviceId: number };
  /** an agent's remote access answer, for the instance waiting on its session, request or transfer */
  'remote.reply': { key: string; deviceId: number; message: AgentRemoteMessage };
  /**
   * a timestamped probe an instance publishes for its own metrics (plugins/metrics.ts): the time
   * from publishing to receiving it back is the bus lag; the other topics carry no timestamps
   */
  'metrics.probe': { instanceId: string; sentAt: number };
  /** a tenant's event webhook subscriptions changed: every instance forgets its cached copy */
  'webhooks.changed': { tenantId: number };
};
export type BusTopic = keyof BusTopics;
export type BusHandler<T extends BusTopic> = (message: BusTopics[T]) => void;

export type Bus = {
  readonly kind: 'memory' | 'redis';
  publish<T extends BusTopic>(topic: T, message: BusTopics[T]): Promise<void>;
  /** returns an unsubscribe function */
  subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>): () => void;
  /** resolves when every subscription made so far is active */
  ready(): Promise<void>;
  close(): Promise<void>;
};

/**
 * One process, no network. Delivery is asynchronous and the message is a structured copy, like
 * over Redis, so code that works here does not depend on shared object identity.
 */
export function createMemoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    publish(topic, message) {
      const copy = structuredClone(message);
      setImmediate(() => emitter.emit(topic, copy));
      return Promise.resolve();
    },
    subscribe(topic, handler) {
      const listener = (m: unknown) => handler(m as Parameters<typeof handler>[0]);
      emitter.on(topic, listener);
      return () => {
        emitter.off(topic, listener);
      };
    },
    async ready() {},
    close() {
      emitter.removeAllListeners();
      return Promise.resolve();
    },
  };
}

/** Told about every message published and received through a bus (the metrics). */
export type BusObserver = {
  published(topic: BusTopic): void;
  received(topic: BusTopic): void;
};

/** The bus, counting what goes through it: each publish once, each delivery to a handler once. */
export function observedBus(bus: Bus, observer: BusObserver): Bus {
  return {
    kind: bus.kind,
    async publish(topic, message) {
      await bus.publish(topic, message);
      observer.published(topic);
    },
    subscribe(topic, handler) {
      return bus.subscribe(topic, (message) => {
        observer.received(topic);
        handler(message);
      });
    },
    ready: () => bus.ready(),
    close: () => bus.close(),
  };
}
