import crypto from 'node:crypto';
import { CHANNEL_KIND_LABELS, channelMessages as messages } from '@outpost/contract/notification-channels';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { conflict, notFound } from '../../lib/errors';
import { loadChannel, requireTenantAdmin } from './channel-access';
import { getDelivery } from './notifications.queries';
import type { Outbox } from './outbox';

// What a channel is asked to send by hand (docs/product/monitoring.md#notification-channels,
// #deliveries): a test, and a delivery again. Both are deliveries like any other, queued with their
// audit entry and sent at once (the outbox's timer is woken).

export function createChannelSends(deps: { db: Db; outbox: Outbox; wake: () => void }) {
  const { db, outbox } = deps;
  const load = (ctx: RequestContext, id: number) => loadChannel(db, ctx, id);
  return {
    /** "Send test": a delivery like any other, sent at once and kept in the channel's log. */
    async sendTest(ctx: RequestContext, id: number): Promise<{ delivery_id: number }> {
      requireTenantAdmin(ctx);
      const channel = await load(ctx, id);
      if (!channel.enabled) {
        throw conflict(messages.disabled, 'CHANNEL_DISABLED');
      }
      const [deliveryId] = await db.transaction(async (tx) => {
        const ids = await outbox.enqueue(tx, [
          {
            tenantId: ctx.tenantId,
            channelId: id,
            event: 'test',
            dedupeKey: `test:${crypto.randomUUID()}`,
            message: { subject: messages.testSubject, text: messages.testText(channel.name, ctx.email) },
          },
        ]);
        await writeAudit(tx, ctx, {
          action: 'Test Notification Channel',
          resourceType: 'notification_channel',
          resourceId: id,
          details: `Sent a test to ${CHANNEL_KIND_LABELS[channel.kind]} channel ${channel.name}`,
        });
        return ids;
      });
      deps.wake();
      return { delivery_id: deliveryId! };
    },

    /** Sends a delivery's message again as a new delivery (its log keeps both). */
    async redeliver(ctx: RequestContext, id: number, deliveryId: number): Promise<{ delivery_id: number }> {
      requireTenantAdmin(ctx);
      const channel = await load(ctx, id);
      const original = await getDelivery(db, ctx.tenantId, id, deliveryId);
      if (!original) {
        throw notFound(messages.deliveryNotFound, 'DELIVERY_NOT_FOUND');
      }
      if (!channel.enabled) {
        throw conflict(messages.disabled, 'CHANNEL_DISABLED');
      }
      const [newId] = await db.transaction(async (tx) => {
        const ids = await outbox.enqueue(tx, [
          {
            tenantId: ctx.tenantId,
            channelId: id,
            event: original.event,
            dedupeKey: `redeliver:${original.id}:${crypto.randomUUID()}`,
            message: original.message as never,
            redeliveryOf: original.id,
          },
        ]);
        await writeAudit(tx, ctx, {
          action: 'Redeliver Notification',
          resourceType: 'notification_channel',
          resourceId: id,
          details: `Redelivered delivery ${original.id} to ${CHANNEL_KIND_LABELS[channel.kind]} channel ${channel.name}`,
        });
        return ids;
      });
      deps.wake();
      return { delivery_id: newId! };
    },
  };
}
