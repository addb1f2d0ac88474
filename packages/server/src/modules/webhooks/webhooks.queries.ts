import { and, eq, inArray, sql } from 'drizzle-orm';
import { webhookSubscriptions } from '../../db/schema/index';
import { rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';

// Event webhook subscriptions (docs/product/webhooks.md#subscriptions): the table is written only
// here. Their deliveries are the notifications module's (webhook-deliveries.queries.ts).

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type SubscriptionValues = Pick<SubscriptionRow, 'name' | 'url' | 'events' | 'enabled' | 'secret'>;

export async function listSubscriptions(ex: Executor, tenantId: number) {
  return ex
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.tenantId, tenantId))
    .orderBy(webhookSubscriptions.name);
}

export async function getSubscription(ex: Executor, tenantId: number, id: number) {
  const [row] = await ex
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.tenantId, tenantId), eq(webhookSubscriptions.id, id)));
  return row ?? null;
}

/** The tenant's enabled subscriptions and their events: what an emitted event is matched against. */
export async function enabledSubscriptions(ex: Executor, tenantId: number) {
  return ex
    .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.tenantId, tenantId), eq(webhookSubscriptions.enabled, true)));
}

/** Of these subscriptions, the ones that still exist (as this transaction sees them). */
export async function existingSubscriptionIds(ex: Executor, ids: number[]): Promise<Set<number>> {
  const rows = await ex
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(inArray(webhookSubscriptions.id, ids));
  return new Set(rows.map((r) => r.id));
}

export async function subscriptionNameTaken(ex: Executor, tenantId: number, name: string, exceptId?: number) {
  const rows = await ex.execute(
    sql`select id from ${webhookSubscriptions} where tenant_id = ${tenantId} and lower(name) = lower(${name})
        ${exceptId === undefined ? sql`` : sql`and id <> ${exceptId}`} limit 1`,
  );
  return rowsOf<{ id: number }>(rows).length > 0;
}

export async function insertSubscription(
  ex: Executor,
  tenantId: number,
  userId: number | null,
  v: SubscriptionValues,
) {
  const [row] = await ex
    .insert(webhookSubscriptions)
    .values({ tenantId, createdBy: userId, ...v })
    .returning();
  return row!;
}

export async function updateSubscription(ex: Executor, id: number, v: SubscriptionValues) {
  const [row] = await ex
    .update(webhookSubscriptions)
    .set({ ...v, updatedAt: new Date() })
    .where(eq(webhookSubscriptions.id, id))
    .returning();
  return row!;
}

export async function deleteSubscription(ex: Executor, id: number) {
  await ex.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
}
