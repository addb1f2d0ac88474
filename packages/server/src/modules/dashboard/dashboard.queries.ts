import { and, count, eq, sql } from 'drizzle-orm';
import type { RecentSoftware } from '@outpost/contract/devices';
import { RECENT_SOFTWARE_DAYS } from '@outpost/contract/devices';
import { deploymentPackages, devices, deviceSoftware } from '../../db/schema/index';
import type { Reader } from '../../lib/db';
import { inScope, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// The dashboard's counts (spec: core §5): aggregates over devices, software and packages, each
// within the caller's scope.

/** Devices in scope, and how many are connected (online or logged in, as the list counts it). */
export async function deviceCounts(db: Reader, ctx: Scope): Promise<{ total: number; online: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      online: sql<number>`(count(*) filter (where ${devices.status} in ('online', 'loggedin')))::int`,
    })
    .from(devices)
    .where(inScope(devices, ctx));
  return { total: row?.total ?? 0, online: row?.online ?? 0 };
}

/** Packages are shared by the whole tenant (no site), so the tenant scope is theirs. */
export async function countPackages(db: Reader, ctx: TenantScope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(deploymentPackages)
    .where(inTenant(deploymentPackages, ctx));
  return row?.n ?? 0;
}

/**
 * Titles first seen on the tenant's (visible) devices within the window, newest first, with how
 * many devices have them and the device where one was seen last.
 */
export async function recentSoftware(db: Reader, ctx: Scope, limit: number): Promise<RecentSoftware[]> {
  const title = sql<string>`coalesce(nullif(${deviceSoftware.displayName}, ''), ${deviceSoftware.name})`;
  const rows = await db
    .select({
      name: title,
      publisher: sql<string | null>`max(${deviceSoftware.publisher})`,
      version: sql<
        string | null
      >`(array_agg(nullif(${deviceSoftware.version}, '') order by ${deviceSoftware.firstSeenAt} desc))[1]`,
      device_count: sql<number>`count(distinct ${deviceSoftware.deviceId})::int`,
      first_seen_at: sql<string>`max(${deviceSoftware.firstSeenAt})`,
      latest_device_guid: sql<string>`(array_agg(${devices.deviceGuid}::text order by ${deviceSoftware.firstSeenAt} desc))[1]`,
      latest_device_hostname: sql<
        string | null
      >`(array_agg(${devices.hostname} order by ${deviceSoftware.firstSeenAt} desc))[1]`,
    })
    .from(deviceSoftware)
    .innerJoin(devices, eq(devices.id, deviceSoftware.deviceId))
    .where(
      and(
        inTenant(deviceSoftware, ctx),
        inScope(devices, ctx),
        sql`${deviceSoftware.firstSeenAt} > now() - make_interval(days => ${RECENT_SOFTWARE_DAYS})`,
      ),
    )
    .groupBy(title)
    .orderBy(sql`max(${deviceSoftware.firstSeenAt}) desc`, title)
    .limit(limit);
  return rows.map((r) => ({ ...r, first_seen_at: new Date(r.first_seen_at).toISOString() }));
}
