import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { notificationDeliveries } from '../../db/schema/index';
import { rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';
import type { DeliveryRow, LastDelivery } from './notifications.queries';

// Event webhooks' deliveries (docs/product/webhooks.md#deliveries): rows of the one outbox,
// notification_deliveries, addressed to a subscription instead of a channel. The table is written
// only by this module (notifications); the webhooks module queues and reads through here.

export type NewEventDelivery = {
  tenantId: number;
  subscriptionId: number;
  event: string;
  dedupeKey: string;
  /** { data, occurred_at }: the event's body is made from it */
  message: Record<string, unknown>;
  redeliveryOf?: number | null;
};

/** Queues event deliveries; one already queued for the same subscription and key is kept, not doubled. */
export async function enqueueEventDeliveries(ex: Executor, rows: NewEventDelivery[], now: Date) {
  if (rows.length === 0) {
    return [];
  }
  const inserted = await ex
    .insert(notificationDeliveries)
    .values(rows.map((r) => ({ ...r, nextAttemptAt: now })))
    .onConflictDoNothing({
      target: [notificationDeliveries.subscriptionId, notificationDeliveries.dedupeKey],
    })
    .returning({ id: notificationDeliveries.id });
  return inserted.map((r) => r.id);
}

const ofSubscription = (tenantId: number, subscriptionId: number) =>
  and(
    eq(notificationDeliveries.tenantId, tenantId),
    eq(notificationDeliveries.subscriptionId, subscriptionId),
  );

/** One page of a subscription's log, newest first, and how many there are. */
export async function listEventDeliveries(
  ex: Executor,
  tenantId: number,
  subscriptionId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = ofSubscription(tenantId, subscriptionId);
  const [rows, [total]] = await Promise.all([
    ex
      .select()
      .from(notificationDeliveries)
      .where(where)
      .orderBy(desc(notificationDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    ex.select({ n: count() }).from(notificationDeliveries).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function getEventDelivery(ex: Executor, tenantId: number, subscriptionId: number, id: number) {
  const [row] = await ex
    .select()
    .from(notificationDeliveries)
    .where(and(ofSubscription(tenantId, subscriptionId), eq(notificationDeliveries.id, id)));
  return row ?? null;
}

/** Each subscription's last delivery (the list's "last delivery" column). */
export async function lastEventDeliveries(
  ex: Executor,
  subscriptionIds: number[],
): Promise<Map<number, LastDelivery>> {
  if (subscriptionIds.length === 0) {
    return new Map();
  }
  const rows = await ex.execute(sql`
    select distinct on (subscription_id) subscription_id, status, coalesce(delivered_at, created_at) as at
      from ${notificationDeliveries}
     where ${inArray(notificationDeliveries.subscriptionId, subscriptionIds)}
     order by subscription_id, id desc`);
  return new Map(
    rowsOf<{ subscription_id: number; status: DeliveryRow['status']; at: string | Date }>(rows).map((r) => [
      Number(r.subscription_id),
      { status: r.status, at: new Date(r.at) },
    ]),
  );
}
