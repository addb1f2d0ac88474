import crypto from 'node:crypto';
import { and, asc, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { notificationChannels, notificationDeliveries } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import type { NewDelivery } from './notifications.queries';

// Digests (docs/product/monitoring.md#quiet-hours-and-digests): alert messages held by quiet
// hours or past a channel's flood limit are stored `digested`, pointing at one pending digest
// delivery of their channel; the digest's message is composed from them when it is claimed, in
// the claim's transaction, so a message folded later goes into the next digest, never nowhere.

/** The events quiet hours and digests hold (alerts opening and resolving). */
export const DIGESTIBLE_EVENTS = ['alert', 'alert_resolved'] as const;

export async function channelDelivery(ex: Executor, channelIds: number[]) {
  if (channelIds.length === 0) {
    return [];
  }
  return ex
    .select({
      id: notificationChannels.id,
      quietHours: notificationChannels.quietHours,
      digest: notificationChannels.digest,
    })
    .from(notificationChannels)
    .where(inArray(notificationChannels.id, channelIds));
}

/** Alert messages of the channel sent on their own (not folded) since `since`. */
export async function recentAlertMessages(ex: Executor, channelId: number, since: Date): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.channelId, channelId),
        inArray(notificationDeliveries.event, [...DIGESTIBLE_EVENTS]),
        ne(notificationDeliveries.status, 'digested'),
        gt(notificationDeliveries.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

/** The channel's digest still collecting (locked until the caller's transaction ends), or null. */
export async function collectingDigest(ex: Executor, channelId: number): Promise<number | null> {
  const rows = await ex
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.channelId, channelId),
        eq(notificationDeliveries.event, 'digest'),
        eq(notificationDeliveries.status, 'pending'),
        eq(notificationDeliveries.attempts, 0),
        isNull(sql`${notificationDeliveries.message}->>'composed'`),
      ),
    )
    .orderBy(asc(notificationDeliveries.id))
    .limit(1)
    .for('update');
  return rows[0]?.id ?? null;
}

export async function openDigest(ex: Executor, tenantId: number, channelId: number, sendAt: Date, now: Date) {
  const [row] = await ex
    .insert(notificationDeliveries)
    .values({
      tenantId,
      channelId,
      event: 'digest',
      dedupeKey: `digest:${channelId}:${now.getTime()}:${crypto.randomUUID()}`,
      message: { subject: 'Digest', text: '' },
      nextAttemptAt: sendAt,
    })
    .returning({ id: notificationDeliveries.id });
  return row!.id;
}

/** Stores a message folded into a digest; one already stored for the channel and key is kept. */
export async function foldIntoDigest(ex: Executor, row: NewDelivery, digestId: number) {
  await ex
    .insert(notificationDeliveries)
    .values({ ...row, status: 'digested', digestId, nextAttemptAt: null })
    .onConflictDoNothing({ target: [notificationDeliveries.channelId, notificationDeliveries.dedupeKey] });
}

const RANK: Record<string, number> = { info: 0, warning: 1, critical: 2 };

/** Writes each claimed digest's message from what was folded into it (in the claim's transaction). */
export async function composeDigests(ex: Executor, digestIds: number[]) {
  const composed = new Map<number, Record<string, unknown>>();
  for (const id of digestIds) {
    const folded = await ex
      .select({ message: notificationDeliveries.message, event: notificationDeliveries.event })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.digestId, id))
      .orderBy(asc(notificationDeliveries.id));
    const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
    const subjects = folded.map((f) => text(f.message.subject, ''));
    const worst = folded.reduce((w, f) => {
      const s = text(f.message.severity, 'info');
      return (RANK[s] ?? 0) > (RANK[w] ?? 0) ? s : w;
    }, 'info');
    const n = folded.length;
    const message = {
      subject: `Outpost digest: ${n} alert message${n === 1 ? '' : 's'}`,
      text: subjects.map((s) => `• ${s}`).join('\n'),
      severity: worst,
      data: { messages: folded.map((f) => ({ event: f.event, ...f.message })) },
      composed: true,
    };
    await ex.update(notificationDeliveries).set({ message }).where(eq(notificationDeliveries.id, id));
    composed.set(id, message);
  }
  return composed;
}
