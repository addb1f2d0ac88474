import crypto from 'node:crypto';
import { WEBHOOK_TEST_EVENT, webhookMessages as messages } from '@outpost/contract/webhooks';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { conflict, notFound } from '../../lib/errors';
import { enqueueEventDeliveries, getEventDelivery } from '../notifications/event-deliveries';
import { requireTenantAdmin } from './webhook-access';
import type { SubscriptionRow } from './webhooks.queries';

// What a webhook is asked to send by hand (docs/product/webhooks.md#subscriptions): a test, and a
// delivery again. Both are deliveries like any other, queued with their audit entry and sent at
// once (the outbox is woken).

export function createWebhookSends(deps: {
  db: Db;
  now: () => number;
  wake: () => void;
  load: (ctx: RequestContext, id: number) => Promise<SubscriptionRow>;
}) {
  const { db, load } = deps;

  /** Queues one message to the subscription, with its audit entry, and sends it at once. */
  async function sendNow(
    ctx: RequestContext,
    row: SubscriptionRow,
    d: { event: string; key: string; message: Record<string, unknown>; redeliveryOf?: number },
    audit: { action: string; details: string },
  ): Promise<{ delivery_id: number }> {
    if (!row.enabled) {
      throw conflict(messages.disabled, 'WEBHOOK_DISABLED');
    }
    const [deliveryId] = await db.transaction(async (tx) => {
      const ids = await enqueueEventDeliveries(
        tx,
        [
          {
            tenantId: ctx.tenantId,
            subscriptionId: row.id,
            event: d.event,
            dedupeKey: d.key,
            message: d.message,
            redeliveryOf: d.redeliveryOf ?? null,
          },
        ],
        new Date(deps.now()),
      );
      await writeAudit(tx, ctx, { ...audit, resourceType: 'webhook', resourceId: row.id });
      return ids;
    });
    deps.wake();
    return { delivery_id: deliveryId! };
  }

  return {
    /** "Send test": a delivery like any other (event webhook.test), sent at once and logged. */
    async sendTest(ctx: RequestContext, id: number) {
      requireTenantAdmin(ctx);
      const row = await load(ctx, id);
      const message = {
        occurred_at: new Date(deps.now()).toISOString(),
        data: { subject: messages.testSubject, webhook: row.name, sent_by: ctx.email },
      };
      return sendNow(
        ctx,
        row,
        { event: WEBHOOK_TEST_EVENT, key: `test:${crypto.randomUUID()}`, message },
        { action: 'Test Webhook', details: `Sent a test to webhook ${row.name}` },
      );
    },

    /** Sends a delivery's body again as a new delivery (the log keeps both). */
    async redeliver(ctx: RequestContext, id: number, deliveryId: number) {
      requireTenantAdmin(ctx);
      const row = await load(ctx, id);
      const original = await getEventDelivery(db, ctx.tenantId, id, deliveryId);
      if (!original) {
        throw notFound(messages.deliveryNotFound, 'DELIVERY_NOT_FOUND');
      }
      return sendNow(
        ctx,
        row,
        {
          event: original.event,
          key: `redeliver:${original.id}:${crypto.randomUUID()}`,
          message: original.message,
          redeliveryOf: original.id,
        },
        {
          action: 'Redeliver Webhook',
          details: `Redelivered delivery ${original.id} to webhook ${row.name}`,
        },
      );
    },
  };
}
