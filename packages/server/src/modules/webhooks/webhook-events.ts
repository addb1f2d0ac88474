import type { WebhookEvent } from '@outpost/contract/webhooks';
import type { Executor } from '../../lib/db';
import type { EventSink } from '../../lib/events';
import { enqueueEventDeliveries } from '../notifications/event-deliveries';
import { enabledSubscriptions, existingSubscriptionIds } from './webhooks.queries';

// Matching an event to subscriptions (docs/product/webhooks.md#events). Presence events are
// numerous (a fleet of 10,000 reconnecting after an outage is 10,000 online events within
// minutes), so the tenant's enabled subscriptions are cached: an event no subscription wants costs
// a map lookup and writes nothing. The cache is forgotten for a tenant when its subscriptions
// change (on this instance at once, on the others through the bus) and after CACHE_TTL_MS anyway.

export const CACHE_TTL_MS = 30_000;

type Cached = { at: number; subscriptions: { id: number; events: string[] }[] };

export function createWebhookEvents(deps: { now: () => number }) {
  const cache = new Map<number, Cached>();
  let lookups = 0;

  async function subscriptionsOf(tx: Executor, tenantId: number) {
    const hit = cache.get(tenantId);
    if (hit && deps.now() - hit.at < CACHE_TTL_MS) {
      return hit.subscriptions;
    }
    lookups++;
    // read in the caller's transaction: on PGlite (one connection) another read would wait for it
    const subscriptions = await enabledSubscriptions(tx, tenantId);
    cache.set(tenantId, { at: deps.now(), subscriptions });
    return subscriptions;
  }

  const sink: EventSink = async (tx, e) => {
    const wanted = (await subscriptionsOf(tx, e.tenantId)).filter((s) =>
      s.events.includes(e.event satisfies WebhookEvent),
    );
    if (wanted.length === 0) {
      return;
    }
    // The cache may still hold a subscription deleted since: by this very transaction (deleting a
    // webhook writes an audit entry, an event it may want) or by another instance whose change
    // has not reached this one. A delivery for it would break the event's own transaction on the
    // foreign key; only subscriptions that exist are told.
    const present = await existingSubscriptionIds(
      tx,
      wanted.map((s) => s.id),
    );
    const told = wanted.filter((s) => present.has(s.id));
    if (told.length === 0) {
      return;
    }
    const now = new Date(deps.now());
    await enqueueEventDeliveries(
      tx,
      told.map((s) => ({
        tenantId: e.tenantId,
        subscriptionId: s.id,
        event: e.event,
        dedupeKey: `${e.event}:${e.key}`,
        message: { data: e.data, occurred_at: now.toISOString() },
      })),
      now,
    );
  };

  return {
    sink,
    /** the tenant's subscriptions changed: the next event reads them again */
    invalidate(tenantId: number) {
      cache.delete(tenantId);
    },
    /** how many times the subscriptions were read from the database (the tests' measure) */
    lookups: () => lookups,
  };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;
