import type { WebhookEvent } from '@outpost/contract/webhooks';
import type { Executor } from './db';

// Events as they happen (docs/product/webhooks.md#events): the code where a device enrols, a
// deployment changes status, an alert opens or an audit entry is written calls emitEvent in its
// own transaction, so an event is queued exactly when what it tells commits. The webhooks module
// is the sink (it queues a delivery per matching subscription; nothing when none wants the event).
// The sink is registered, not imported, because lib/audit.ts and every module emit while the
// webhooks module itself writes audit entries: importing it here would be a cycle.

export type EventSink = (
  tx: Executor,
  e: { tenantId: number; event: WebhookEvent; data: Record<string, unknown>; key: string },
) => Promise<void>;

let sink: EventSink | null = null;

/** The app's sink (services.ts); null: events go nowhere (a script without the app). */
export function setEventSink(next: EventSink | null): void {
  sink = next;
}

/**
 * Tells the subscriptions of the tenant that want `event`, in the caller's transaction. `key`
 * names the occurrence: one occurrence is one delivery per subscription, whatever is retried.
 */
export async function emitEvent(
  tx: Executor,
  tenantId: number,
  event: WebhookEvent,
  data: Record<string, unknown>,
  key: string,
): Promise<void> {
  await sink?.(tx, { tenantId, event, data, key });
}
