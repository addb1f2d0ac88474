import { and, desc, eq, sql } from 'drizzle-orm';
import {
  notificationChannels,
  notificationDeliveries,
  tenants,
  webhookSubscriptions,
} from '../../db/schema/index';
import { rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';

// Notification channels and their deliveries (docs/product/monitoring.md#notification-channels,
// #deliveries): channels are the tenant's; deliveries are the outbox and the log at once. Both
// tables are written only here.

export type ChannelRow = typeof notificationChannels.$inferSelect;
export type ChannelValues = Pick<
  ChannelRow,
  'name' | 'kind' | 'enabled' | 'config' | 'secret' | 'quietHours' | 'digest'
>;
export type DeliveryRow = typeof notificationDeliveries.$inferSelect;
export type LastDelivery = { status: DeliveryRow['status']; at: Date } | null;

export async function listChannels(ex: Executor, tenantId: number) {
  const rows = await ex
    .select({
      channel: notificationChannels,
      lastStatus: sql<DeliveryRow['status'] | null>`last.status`,
      lastAt: sql<string | null>`last.at`,
    })
    .from(notificationChannels)
    .leftJoin(
      sql`lateral (select d.status, coalesce(d.delivered_at, d.created_at) as at from ${notificationDeliveries} d
           where d.channel_id = ${notificationChannels.id} order by d.id desc limit 1) last`,
      sql`true`,
    )
    .where(eq(notificationChannels.tenantId, tenantId))
    .orderBy(notificationChannels.name);
  return rows.map((r) => ({
    channel: r.channel,
    last: r.lastStatus && r.lastAt ? { status: r.lastStatus, at: new Date(r.lastAt) } : null,
  }));
}

export async function getChannel(ex: Executor, tenantId: number, id: number): Promise<ChannelRow | null> {
  const [row] = await ex
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.tenantId, tenantId), eq(notificationChannels.id, id)));
  return row ?? null;
}

/** The organisation's enabled channels: those a notification without routing goes to. */
export async function channelNameTaken(ex: Executor, tenantId: number, name: string, exceptId?: number) {
  const rows = await ex.execute(
    sql`select id from ${notificationChannels} where tenant_id = ${tenantId} and lower(name) = lower(${name})
        ${exceptId === undefined ? sql`` : sql`and id <> ${exceptId}`} limit 1`,
  );
  return rowsOf<{ id: number }>(rows).length > 0;
}

export async function insertChannel(ex: Executor, tenantId: number, userId: number | null, v: ChannelValues) {
  const [row] = await ex
    .insert(notificationChannels)
    .values({ tenantId, createdBy: userId, ...v })
    .returning();
  return row!;
}

export async function updateChannel(ex: Executor, id: number, v: ChannelValues) {
  const [row] = await ex
    .update(notificationChannels)
    .set({ ...v, updatedAt: new Date() })
    .where(eq(notificationChannels.id, id))
    .returning();
  return row!;
}

export async function deleteChannel(ex: Executor, id: number) {
  await ex.delete(notificationChannels).where(eq(notificationChannels.id, id));
}

export type NewDelivery = {
  tenantId: number;
  channelId: number;
  event: string;
  dedupeKey: string;
  message: Record<string, unknown>;
  redeliveryOf?: number | null;
};

/** Queues deliveries; one already queued for the same channel and key is kept, not doubled. */
export async function enqueueDeliveries(ex: Executor, rows: NewDelivery[], now: Date): Promise<number[]> {
  if (rows.length === 0) {
    return [];
  }
  const inserted = await ex
    .insert(notificationDeliveries)
    .values(rows.map((r) => ({ ...r, nextAttemptAt: now })))
    .onConflictDoNothing({ target: [notificationDeliveries.channelId, notificationDeliveries.dedupeKey] })
    .returning({ id: notificationDeliveries.id });
  return inserted.map((r) => r.id);
}

/** A claimed row and its destination: a channel, or an event webhook subscription. */
export type ClaimedDelivery = DeliveryRow & {
  channel: ChannelRow | null;
  subscription: typeof webhookSubscriptions.$inferSelect | null;
  tenantName: string;
};

/**
 * Claims due deliveries for this instance: their next attempt moves a lease ahead, so an
 * instance that dies while sending leaves them to be tried again once the lease ends.
 */
export async function claimDueDeliveries(ex: Executor, now: Date, leaseMs: number, limit: number) {
  const claimed = await ex.execute(sql`
    update ${notificationDeliveries} set next_attempt_at = ${new Date(now.getTime() + leaseMs)}
     where id in (
       select id from ${notificationDeliveries}
        where status = 'pending' and next_attempt_at <= ${now}
        order by next_attempt_at, id
        for update skip locked
        limit ${limit})
    returning id`);
  const ids = rowsOf<{ id: number }>(claimed).map((r) => Number(r.id));
  if (ids.length === 0) {
    return [];
  }
  const rows = await ex
    .select({
      delivery: notificationDeliveries,
      channel: notificationChannels,
      subscription: webhookSubscriptions,
      tenantName: tenants.tenantName,
    })
    .from(notificationDeliveries)
    .leftJoin(notificationChannels, eq(notificationChannels.id, notificationDeliveries.channelId))
    .leftJoin(webhookSubscriptions, eq(webhookSubscriptions.id, notificationDeliveries.subscriptionId))
    .innerJoin(tenants, eq(tenants.id, notificationDeliveries.tenantId))
    .where(sql`${notificationDeliveries.id} in ${ids}`);
  return rows.map((r): ClaimedDelivery => ({
    ...r.delivery,
    channel: r.channel,
    subscription: r.subscription,
    tenantName: r.tenantName,
  }));
}

export type AttemptOutcome = {
  code: number | null;
  error: string | null;
  /** delivered, failed for good (given up), or pending again at nextAttemptAt */
  status: DeliveryRow['status'];
  nextAttemptAt: Date | null;
  at: Date;
};

export async function recordAttempt(ex: Executor, id: number, o: AttemptOutcome) {
  await ex
    .update(notificationDeliveries)
    .set({
      attempts: sql`${notificationDeliveries.attempts} + 1`,
      status: o.status,
      lastCode: o.code,
      lastError: o.error,
      nextAttemptAt: o.nextAttemptAt,
      deliveredAt: o.status === 'delivered' ? o.at : null,
    })
    .where(eq(notificationDeliveries.id, id));
}

export async function listDeliveries(ex: Executor, tenantId: number, channelId: number, limit: number) {
  return ex
    .select()
    .from(notificationDeliveries)
    .where(
      and(eq(notificationDeliveries.tenantId, tenantId), eq(notificationDeliveries.channelId, channelId)),
    )
    .orderBy(desc(notificationDeliveries.id))
    .limit(limit);
}

export async function getDelivery(ex: Executor, tenantId: number, channelId: number, id: number) {
  const [row] = await ex
    .select()
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.tenantId, tenantId),
        eq(notificationDeliveries.channelId, channelId),
        eq(notificationDeliveries.id, id),
      ),
    );
  return row ?? null;
}
