import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, BusHandler, BusTopic, BusTopics } from './bus';

/**
 * Redis pub/sub: one connection publishes, one subscribes. A message published while Redis is
 * away is lost, which is fine for a doorbell: agents re-read their queue on every connect and
 * portal clients refetch on reconnect.
 */
export async function createRedisBus(url: string, prefix: string, log: FastifyBaseLogger): Promise<Bus> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3 };
  const pub = new Redis(url, options);
  const sub = new Redis(url, options);
  for (const [name, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    client.on('error', (err: Error) => log.warn({ err: err.message }, `redis ${name} error`));
  }
  await Promise.all([pub.connect(), sub.connect()]);

  let dropped = 0;
  pub.on('ready', () => {
    if (dropped > 0) {
      log.warn({ dropped }, 'redis is back; bus messages were dropped while it was away');
      dropped = 0;
    }
  });
  const handlers = new Map<string, Set<(m: unknown) => void>>();
  const pending: Promise<unknown>[] = [];
  sub.on('message', (channel: string, raw: string) => {
    const set = handlers.get(channel);
    if (!set) {
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      log.warn({ channel }, 'ignored a bus message that is not JSON');
      return;
    }
    for (const handler of set) {
      try {
        handler(message);
      } catch (err) {
        log.error({ err, channel }, 'bus handler failed');
      }
    }
  });

  return {
    kind: 'redis',
    async publish<T extends BusTopic>(topic: T, message: BusTopics[T]) {
      // Never fails the caller: with Redis away the message is dropped at once rather
      // than queued or thrown into a request that already committed its work. What it announced
      // is in the database; instances poll it for their agents' commands (agent-hub.ts) and
      // waiters read results from it (command-queue.ts).
      if (pub.status !== 'ready') {
        dropped++;
        return;
      }
      try {
        await pub.publish(prefix + topic, JSON.stringify(message));
      } catch (err) {
        dropped++;
        log.warn(
          { err: err instanceof Error ? err.message : String(err), topic },
          'redis publish failed; message dropped',
        );
      }
    },
    subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>) {
      const channel = prefix + topic;
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        pending.push(
          sub
            .subscribe(channel)
            .catch((err: unknown) => log.error({ err, channel }, 'redis subscribe failed')),
        );
      }
      const h = handler as (m: unknown) => void;
      set.add(h);
      return () => {
        set.delete(h);
      };
    },
    async ready() {
      await Promise.all(pending);
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

/**
 * A command connection for shared rate limits (the sign-in, enrolment and agent upgrade limits),
 * so N instances enforce one limit (docs/product/agent-protocol.md#several-instances).
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  client.on('error', (err: Error) => log.warn({ err: err.message }, 'redis rate-limit connection error'));
  await client.connect();
  return client;
}
