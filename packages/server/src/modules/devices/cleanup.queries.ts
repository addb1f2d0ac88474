import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { devices } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { rowsOf } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// Agent cleanup's queries (docs/product/administration.md#agent-cleanup; SECURITY.md R2-4), in the caller's scope only: a
// site-limited administrator's cleanup weighs and removes devices of their sites alone.

/** The database's clock: a plan is made "as of" this moment and carried out only if still true. */
export async function databaseNow(db: Executor): Promise<Date> {
  const [row] = rowsOf<{ now: Date | string }>(await db.execute(sql`select now() as now`));
  return new Date(row?.now ?? Date.now());
}

/** Offline devices not seen for `days` (never seen: created that long ago). */
export async function staleDevices(db: Reader, ctx: Scope, days: number) {
  return db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      siteId: devices.siteId,
    })
    .from(devices)
    .where(
      and(
        inScope(devices, ctx),
        eq(devices.status, 'offline'),
        sql`coalesce(${devices.lastSeen}, ${devices.createdAt}) < now() - make_interval(days => ${days})`,
      ),
    )
    .orderBy(asc(devices.id));
}

/**
 * What duplicate detection needs: serial, hostname and the interfaces' MAC addresses, and what the
 * rules weigh: status, enrolment time and last_seen (the last message over the record's
 * authenticated socket).
 */
export async function duplicateCandidates(db: Reader, ctx: Scope) {
  return db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      serialNumber: devices.serialNumber,
      siteId: devices.siteId,
      status: devices.status,
      lastSeen: devices.lastSeen,
      createdAt: devices.createdAt,
      macs: sql<string[] | null>`(
        select array_agg(distinct lower(i->>'macAddress'))
        from jsonb_array_elements(coalesce(${devices.networkInfo}->'interfaces', '[]'::jsonb)) as i
        where coalesce(i->>'macAddress', '') not in ('', '00:00:00:00:00:00')
      )`,
    })
    .from(devices)
    .where(inScope(devices, ctx));
}

/**
 * Deletes these devices in the caller's scope while they are still what the plan saw: offline,
 * and not heard from since `plannedAt` (an agent that connected after the preview is spared).
 * Returns the ids really deleted.
 */
export async function deleteIdleDevices(
  tx: Executor,
  ctx: Scope,
  ids: number[],
  plannedAt: Date,
): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await tx
    .delete(devices)
    .where(
      and(
        inScope(devices, ctx),
        inArray(devices.id, ids),
        eq(devices.status, 'offline'),
        sql`(${devices.lastSeen} is null or ${devices.lastSeen} <= ${plannedAt.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: devices.id });
  return rows.map((r) => r.id);
}
