import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DeviceListFilters, DeviceListItem, SiteOption, SoftwareItem } from '@outpost/contract/devices';
import { deviceCounts, devices, deviceSoftware, sites } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant, isSiteLimited, sitesInScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import { deviceColumns, deviceListColumns, toListItem } from './devices.queries';
import type { DeviceSelection } from './devices.queries';

// The devices API's queries. Queries only query; every one takes the caller's scope and builds
// its condition with lib/scope, so a device of another tenant or of a site the caller was not
// given is simply not found.

export type { Scope };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Status 'online' means connected: online or loggedin (the dashboard counts it the same way). */
const statusCondition = (status: DeviceListFilters['status']): SQL | undefined => {
  if (!status) {
    return undefined;
  }
  return status === 'online' ? inArray(devices.status, ['online', 'loggedin']) : eq(devices.status, status);
};

export function deviceListWhere(ctx: Scope, f: Omit<DeviceListFilters, 'page' | 'limit'>): SQL {
  const term = f.search ? `%${escapeLike(f.search.toLowerCase())}%` : null;
  const where = and(
    inScope(devices, ctx),
    term
      ? or(
          sql`lower(${devices.hostname}) like ${term}`,
          ilike(devices.ipAddress, term),
          sql`lower(${devices.serialNumber}) like ${term}`,
        )
      : undefined,
    statusCondition(f.status),
    f.os_type ? eq(devices.osType, f.os_type) : undefined,
    f.site_id ? eq(devices.siteId, f.site_id) : undefined,
  );
  return where ?? inScope(devices, ctx);
}

/**
 * How many devices match, without a search: the sum of the few `device_counts` rows of the
 * tenant (per site, status and OS type, kept by triggers with the rows) instead of a count(*)
 * over the tenant's devices. Exact, in the same scope as the page (a site-limited caller sums
 * their sites only; devices without a site are not theirs).
 */
/** The device_counts rows of a list's filters in the caller's scope; null when none can match. */
function countersWhere(ctx: Scope, f: Pick<DeviceListFilters, 'status' | 'os_type' | 'site_id'>): SQL | null {
  if (isSiteLimited(ctx) && ctx.siteIds.length === 0) {
    return null;
  }
  const status = f.status
    ? f.status === 'online'
      ? inArray(deviceCounts.status, ['online', 'loggedin'])
      : eq(deviceCounts.status, f.status)
    : undefined;
  return (
    and(
      inTenant(deviceCounts, ctx),
      isSiteLimited(ctx) ? inArray(deviceCounts.siteId, ctx.siteIds) : undefined,
      status,
      f.os_type ? eq(deviceCounts.osType, f.os_type) : undefined,
      f.site_id ? eq(deviceCounts.siteId, f.site_id) : undefined,
    ) ?? null
  );
}

/** The counters' sum as a scalar subquery (a column of the page query: one statement, one snapshot). */
const countersTotal = (where: SQL | null) =>
  where
    ? sql<number>`(select coalesce(sum(${deviceCounts.n}), 0)::int from ${deviceCounts} where ${where})`
    : sql<number>`0`;

export async function countFromCounters(
  db: Reader,
  ctx: Scope,
  f: Pick<DeviceListFilters, 'status' | 'os_type' | 'site_id'>,
): Promise<number> {
  const where = countersWhere(ctx, f);
  if (!where) {
    return 0;
  }
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${deviceCounts.n}), 0)::int` })
    .from(deviceCounts)
    .where(where);
  return row?.n ?? 0;
}

/**
 * Folds each key's deltas in device_counts into one row (and drops keys whose sum is 0), in one
 * statement: the rows it deletes and the sum it inserts commit together, so a reader sees either
 * the deltas or their sum, never both. Safe beside writers (they only insert new deltas, which it
 * leaves for next time) and beside another instance compacting at the same moment (a row
 * deleted by the other is skipped, and only what this one deleted is summed). The one write in
 * this file: the counters' upkeep, run by a timer of the devices module.
 */
export async function compactDeviceCounts(db: Pick<Executor, 'execute'>): Promise<void> {
  await db.execute(sql`
    with folded as (
      select tenant_id, site_id, status, os_type from ${deviceCounts}
      group by 1, 2, 3, 4 having count(*) > 1 or sum(n) = 0
    ), gone as (
      delete from ${deviceCounts} c using folded f
      where c.tenant_id = f.tenant_id and c.site_id = f.site_id and c.status = f.status and c.os_type = f.os_type
      returning c.tenant_id, c.site_id, c.status, c.os_type, c.n
    )
    insert into ${deviceCounts} (tenant_id, site_id, status, os_type, n)
    select tenant_id, site_id, status, os_type, sum(n)::int from gone group by 1, 2, 3, 4 having sum(n) <> 0`);
}

/** The devices' status and connected counts in scope, from the counters (the dashboard's tiles). */
export async function statusCounts(db: Reader, ctx: Scope): Promise<{ total: number; online: number }> {
  if (isSiteLimited(ctx) && ctx.siteIds.length === 0) {
    return { total: 0, online: 0 };
  }
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${deviceCounts.n}), 0)::int`,
      online: sql<number>`coalesce(sum(${deviceCounts.n}) filter (where ${deviceCounts.status} in ('online', 'loggedin')), 0)::int`,
    })
    .from(deviceCounts)
    .where(
      and(
        inTenant(deviceCounts, ctx),
        isSiteLimited(ctx) ? inArray(deviceCounts.siteId, ctx.siteIds) : undefined,
      ),
    );
  return { total: row?.total ?? 0, online: row?.online ?? 0 };
}

/** The order of the list: stable (hostname, then id), the order of devices_tenant_hostname_idx. */
const listOrder = [sql`lower(${devices.hostname}) asc nulls last`, asc(devices.id)] as const;
/** The same order reversed exactly, so the index is walked backwards from the list's end. */
const listOrderReversed = [sql`lower(${devices.hostname}) desc nulls first`, desc(devices.id)] as const;

/**
 * From this many rows into the list, a page in its second half is read from the end: the walk
 * to it is then the distance from the end, so the last page costs what the first does.
 */
const BACKWARD_FROM_ROWS = 1_000;

type PageWindow = { limit: number; offset: number; isBackward: boolean };

/**
 * A page of rows in list order: the page's ids first, from devices_tenant_hostname_idx alone (it
 * includes every filter and search column: an index-only scan, so an OFFSET or a search's walk
 * does not read the table), then only those rows with their site. `total` is a column of the
 * same statement (the counters' sum, or 0 when the caller counts otherwise).
 */
function pageQuery(db: Reader, where: SQL, w: PageWindow, total: SQL<number>) {
  const pageIds = db
    .select({ id: devices.id })
    .from(devices)
    .where(where)
    .orderBy(...(w.isBackward ? listOrderReversed : listOrder))
    .limit(w.limit)
    .offset(w.offset)
    .as('page_ids');
  return db
    .select({ ...deviceListColumns, total })
    .from(devices)
    .innerJoin(pageIds, eq(pageIds.id, devices.id))
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .orderBy(...listOrder);
}

/**
 * A page of devices. The order is stable (hostname, then id). Without a search the total is the
 * counters' sum, a column of the page statement (one round trip, the same snapshot as the rows);
 * a search counts its matches with a count(*) on a second connection at the same time as the
 * page (tenant-first trigram indexes). A deep page in the list's second half is read backwards
 * from the end, its position computed from the counters' total read first; should the total
 * have moved between the two statements (a device enrolled or removed meanwhile), the page is
 * read forwards instead, in one statement.
 */
export async function listDevices(
  db: Reader,
  ctx: Scope,
  f: DeviceListFilters,
  { backwardFromRows = BACKWARD_FROM_ROWS } = {},
): Promise<{ rows: DeviceListItem[]; total: number }> {
  const where = deviceListWhere(ctx, f);
  const forward: PageWindow = { limit: f.limit, offset: (f.page - 1) * f.limit, isBackward: false };
  if (f.search) {
    const [rows, [counted]] = await Promise.all([
      pageQuery(db, where, forward, sql<number>`0`),
      db.select({ n: count() }).from(devices).where(where),
    ]);
    return { rows: rows.map(toListItem), total: counted?.n ?? 0 };
  }
  const counters = countersWhere(ctx, f);
  const total = countersTotal(counters);
  if (forward.offset >= backwardFromRows) {
    const known = await countFromCounters(db, ctx, f);
    if (forward.offset >= known) {
      return { rows: [], total: known };
    }
    if (forward.offset >= known / 2) {
      const limit = Math.min(f.limit, known - forward.offset);
      const backward = { limit, offset: known - forward.offset - limit, isBackward: true };
      const rows = await pageQuery(db, where, backward, total);
      if (rows[0]?.total === known) {
        return { rows: rows.map(toListItem), total: known };
      }
    }
  }
  const rows = await pageQuery(db, where, forward, total);
  // past the last page there is no row to carry the total (page 1 empty: nothing matches)
  const counted = rows[0]?.total ?? (f.page > 1 ? await countFromCounters(db, ctx, f) : 0);
  return { rows: rows.map(toListItem), total: counted };
}

/** A numeric id or a device guid. */
export function deviceKeyCondition(idOrGuid: string): SQL | null {
  if (/^[1-9][0-9]{0,9}$/.test(idOrGuid) && Number(idOrGuid) <= 2_147_483_647) {
    return eq(devices.id, Number(idOrGuid));
  }
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrGuid)) {
    return eq(devices.deviceGuid, idOrGuid.toLowerCase());
  }
  return null;
}

export type ScopedDevice = DeviceSelection & { services: typeof devices.$inferSelect.services };

/** One device in the caller's scope by id or guid, with its services; null when not visible. */
export async function findScopedDevice(
  db: Reader,
  ctx: Scope,
  idOrGuid: string,
): Promise<ScopedDevice | null> {
  const key = deviceKeyCondition(idOrGuid);
  if (!key) {
    return null;
  }
  const [row] = await db
    .select({ ...deviceColumns, services: devices.services })
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(and(inScope(devices, ctx), key))
    .limit(1);
  return row ?? null;
}

/** The devices of these ids that the caller may see, in the order of `ids` (messages list them so). */
export async function findScopedDevicesByIds(db: Reader, ctx: Scope, ids: number[]) {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      ipAddress: devices.ipAddress,
      status: devices.status,
      siteId: devices.siteId,
    })
    .from(devices)
    .where(and(inScope(devices, ctx), inArray(devices.id, ids)));
  const position = new Map(ids.map((id, i) => [id, i] as const));
  return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}

export async function listDeviceSoftware(
  db: Reader,
  deviceId: number,
  f: { page: number; limit: number; search?: string },
): Promise<{ rows: SoftwareItem[]; total: number }> {
  const term = f.search ? `%${escapeLike(f.search)}%` : null;
  const where = and(
    eq(deviceSoftware.deviceId, deviceId),
    term
      ? or(
          ilike(deviceSoftware.name, term),
          ilike(deviceSoftware.displayName, term),
          ilike(deviceSoftware.publisher, term),
        )
      : undefined,
  );
  const [totalRow] = await db.select({ n: count() }).from(deviceSoftware).where(where);
  const rows = await db
    .select({
      name: deviceSoftware.name,
      displayName: deviceSoftware.displayName,
      publisher: deviceSoftware.publisher,
      version: deviceSoftware.version,
      installDate: deviceSoftware.installDate,
    })
    .from(deviceSoftware)
    .where(where)
    .orderBy(
      sql`lower(coalesce(${deviceSoftware.displayName}, ${deviceSoftware.name}))`,
      asc(deviceSoftware.id),
    )
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows: rows.map((r) => ({ ...r, version: r.version || null })), total: totalRow?.n ?? 0 };
}

export async function listSiteOptions(db: Reader, ctx: Scope): Promise<SiteOption[]> {
  return db
    .select({ id: sites.id, site_name: sites.siteName, site_code: sites.siteCode })
    .from(sites)
    .where(sitesInScope(sites, ctx))
    .orderBy(asc(sites.siteName), asc(sites.id));
}

/** The devices seen most recently (the dashboard's "recent devices"). */
export async function recentDevices(db: Reader, ctx: Scope, limit: number): Promise<DeviceListItem[]> {
  const rows = await db
    .select(deviceListColumns)
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(inScope(devices, ctx))
    .orderBy(sql`${devices.lastSeen} desc nulls last`, sql`${devices.id} desc nulls last`)
    .limit(limit);
  return rows.map(toListItem);
}

// ---------- agents cleanup ----------

/** Offline devices not seen for `days` (never seen: created that long ago). */
export async function staleDevices(db: Reader, ctx: Scope, days: number) {
  return db
    .select({ id: devices.id, deviceGuid: devices.deviceGuid, hostname: devices.hostname })
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
 * What duplicate detection needs: serial, hostname and the interfaces' MAC addresses, of the
 * devices in the caller's scope only (a site-limited administrator's cleanup stays in their sites).
 */
export async function duplicateCandidates(db: Reader, ctx: Scope) {
  return db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      serialNumber: devices.serialNumber,
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

/** Deletes these devices, within the caller's scope; returns the ids really deleted. */
export async function deleteDevices(tx: Executor, ctx: Scope, ids: number[]): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await tx
    .delete(devices)
    .where(and(inScope(devices, ctx), inArray(devices.id, ids)))
    .returning({ id: devices.id });
  return rows.map((r) => r.id);
}
