import { and, desc, eq, gte } from 'drizzle-orm';
import { activityEvents } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { inTenant } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';

// The device's activity log as the device's Activity tab lists it, and the agent's notices
// (memory_limit), which go into the log without counting any time (docs/product/activity.md).

/** Writes a notice of the agent into the device's log. */
export async function insertNotice(
  tx: Executor,
  scope: TenantScope,
  deviceId: number,
  notice: { type: 'memory_limit'; detail: string; at: Date },
): Promise<void> {
  await tx.insert(activityEvents).values({
    tenantId: scope.tenantId,
    deviceId,
    eventType: notice.type,
    eventTimestamp: notice.at,
    createdAt: notice.at,
    detail: notice.detail,
  });
}

/** The device's log since `since`, newest first. */
export async function listEvents(
  db: Reader,
  scope: TenantScope,
  deviceId: number,
  since: Date,
  limit: number,
) {
  return db
    .select({
      id: activityEvents.id,
      event_type: activityEvents.eventType,
      eventTimestamp: activityEvents.eventTimestamp,
      user_name: activityEvents.userName,
      ip_address: activityEvents.ipAddress,
      session_id: activityEvents.sessionId,
      detail: activityEvents.detail,
    })
    .from(activityEvents)
    .where(
      and(
        inTenant(activityEvents, scope),
        eq(activityEvents.deviceId, deviceId),
        gte(activityEvents.eventTimestamp, since),
      ),
    )
    .orderBy(desc(activityEvents.eventTimestamp), desc(activityEvents.id))
    .limit(limit);
}
