import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DeviceListFilters, DeviceListItem, SiteOption } from '@outpost/contract/devices';
import { deviceCounts, devices, sites } from '../../db/schema/index';
import { statementCache, UNNAMED_STATEMENT, withRowMapper } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inScopePlaceholders, isSiteLimited, scopeValues, sitesInScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import {
  filterConditions,
  hasSetFilter,
  isCounted,
  isSetAlone,
  listShape,
  listValues,
  listWhere,
  shapeKey,
  shapeOfKey,
} from './devices-list-shape.queries';
import type { ListFilters, ListShape } from './devices-list-shape.queries';
import { resolveFieldDefault, smallestSetSize } from './devices-list-sets.queries';
import { deviceColumns, deviceListColumns, LIST_COLUMN_COUNT, listItemOfRow } from './devices.queries';
import type { DeviceSelection } from './devices.queries';

// The devices API's queries. Queries only query; every one takes the caller's scope and builds
// its condition with lib/scope, so a device of another tenant or of a site the caller was not
// given is simply not found.

export type { Scope };
// The software list of one device lives in device-software.queries.ts.
export { listDeviceSoftware } from './device-software.queries';
// The list's WHERE, for a statement of one's own over the same devices (the CSV export).
export { deviceListCondition } from './devices-list-shape.queries';

const p = sql.placeholder;

/**
 * The device_counts rows of a list's filters in the caller's scope (a site-limited caller sums
 * their sites only; devices without a site are not theirs). The search plays no part: no counter
 * can know which rows match a substring.
 */
function countersWhere(s: ListShape): SQL {
  return and(inScopePlaceholders(deviceCounts, s.isSiteLimited), ...filterConditions(deviceCounts, s))!;
}

/** The counters' sum as a scalar subquery (a column of the page query: one statement, one snapshot). */
const countersTotal = (s: ListShape) =>
  sql<number>`(select coalesce(sum(${deviceCounts.n}), 0)::int from ${deviceCounts} where ${countersWhere(s)})`;

/** None of the caller's devices can match: a site-limited caller without sites. */
const seesNothing = (ctx: Scope) => isSiteLimited(ctx) && ctx.siteIds.length === 0;

const countersStatement = statementCache((db, key) =>
  db
    .select({ n: sql<number>`coalesce(sum(${deviceCounts.n}), 0)::int` })
    .from(deviceCounts)
    .where(countersWhere(shapeOfKey(key)))
    .prepare(UNNAMED_STATEMENT),
);

/**
 * How many devices match, without a search: the sum of the few `device_counts` rows of the
 * tenant (per site, status and OS type, kept by triggers with the rows) instead of a count(*)
 * over the tenant's devices. Exact, in the same scope as the page.
 */
export async function countFromCounters(db: Reader, ctx: Scope, f: ListFilters): Promise<number> {
  if (seesNothing(ctx)) {
    return 0;
  }
  const shape = listShape(ctx, {
    ...f,
    search: undefined,
    tag_id: undefined,
    group_id: undefined,
    field_key: undefined,
    field_value: undefined,
  });
  const [row] = await countersStatement(db, shapeKey(shape)).execute(listValues(ctx, f));
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

const statusCountsStatement = statementCache((db, key) =>
  db
    .select({
      total: sql<number>`coalesce(sum(${deviceCounts.n}), 0)::int`,
      online: sql<number>`coalesce(sum(${deviceCounts.n}) filter (where ${deviceCounts.status} in ('online', 'loggedin')), 0)::int`,
    })
    .from(deviceCounts)
    .where(inScopePlaceholders(deviceCounts, key === 'sites'))
    .prepare(UNNAMED_STATEMENT),
);

/** The devices' status and connected counts in scope, from the counters (the dashboard's tiles). */
export async function statusCounts(db: Reader, ctx: Scope): Promise<{ total: number; online: number }> {
  if (seesNothing(ctx)) {
    return { total: 0, online: 0 };
  }
  const statement = statusCountsStatement(db, isSiteLimited(ctx) ? 'sites' : 'tenant');
  const [row] = await statement.execute(scopeValues(ctx));
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

/**
 * A set filter of more devices than this is read by walking the list's index and probing the set
 * (a page), or joined with the devices the other filters leave (a count); a smaller one is read
 * by primary key (bench/device-sets.ts measures both at 100,000 devices).
 */
const SMALL_SET_ROWS = 2_000;

/**
 * A search whose page the list's index reaches within about this many entries is paged by walking
 * that index in order (ListShape.searchForm 'walk'): the entries walked are estimated as the page's
 * end × the devices the other filters leave (their counters) ÷ the search's known total. Otherwise,
 * or with the total not counted yet, through the trigram index (bench/api.ts --million: "pc-00"
 * with a status and a site, 10,000 term matches to recheck, 129 ms → 0.1 ms walked; "pc-0042", 100
 * matches in a million, stays on the trigram index: 7 ms, walked 1.8 s).
 */
const WALKED_SEARCH_ENTRIES = 20_000;

type PageWindow = { limit: number; offset: number; isBackward: boolean };

/**
 * A page of rows in list order: the page's ids first, from devices_tenant_hostname_idx alone (it
 * includes every filter and search column: an index-only scan, so an OFFSET or a search's walk
 * does not read the table), then only those rows with their site. `total` is a column of the
 * same statement: the counters' sum, or 0 with a search (counted by searchCountStatement).
 * Key: the list's shape, then 'f' (forwards) or 'b' (backwards from the end).
 */
const pageStatement = statementCache((db, key) => {
  const shape = shapeOfKey(key.slice(0, -1));
  const isBackward = key.endsWith('b');
  const pageIds = db
    .select({ id: devices.id })
    .from(devices)
    .where(listWhere(shape))
    .orderBy(...(isBackward ? listOrderReversed : listOrder))
    .limit(p('limit'))
    .offset(p('offset'))
    .as('page_ids');
  const prepared = db
    .select({ ...deviceListColumns, total: isCounted(shape) ? sql<number>`0` : countersTotal(shape) })
    .from(devices)
    .innerJoin(pageIds, eq(pageIds.id, devices.id))
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .orderBy(...listOrder)
    .prepare(UNNAMED_STATEMENT);
  // the items straight from the driver's rows, and the total of the first (none past the end)
  return withRowMapper(prepared, (rows) => ({
    items: rows.map(listItemOfRow),
    total: rows[0]?.[LIST_COLUMN_COUNT] as number | undefined,
  }));
});

const searchCountStatement = statementCache((db, key) =>
  db
    .select({ n: count() })
    .from(devices)
    .where(listWhere(shapeOfKey(key)))
    .prepare(UNNAMED_STATEMENT),
);

/**
 * A page of devices. The order is stable (hostname, then id). Without a search the total is the
 * counters' sum, a column of the page statement (one round trip, the same snapshot as the rows);
 * a search counts its matches with a count(*) on a second connection at the same time as the
 * page (tenant-first trigram indexes); so does a tag, group or custom-field filter, which no
 * counter knows (docs/product/device-sets.md#device-list-filters). A deep page in the list's second half is read backwards
 * from the end, its position computed from the counters' total read first; should the total
 * have moved between the two statements (a device enrolled or removed meanwhile), the page is
 * read forwards instead, in one statement.
 */
export async function listDevices(
  db: Reader,
  ctx: Scope,
  f: DeviceListFilters,
  {
    backwardFromRows = BACKWARD_FROM_ROWS,
    smallSetRows = SMALL_SET_ROWS,
    walkedSearchEntries = WALKED_SEARCH_ENTRIES,
    searchTotal,
    setSize,
  }: {
    backwardFromRows?: number;
    /** a search whose page is within this many entries of the list's index walks it (tests raise it) */
    walkedSearchEntries?: number;
    /** the largest set filter read by primary key (tests lower it) */
    smallSetRows?: number;
    /** a search's total counted moments ago (the service keeps it): used when the page agrees */
    searchTotal?: number;
    /** the set filter's size counted with that total (the service keeps it too) */
    setSize?: number;
  } = {},
): Promise<{ rows: DeviceListItem[]; total: number; isSearchCounted?: boolean; setSize?: number }> {
  const filters = await resolveFieldDefault(db, ctx.tenantId, f);
  const shape = listShape(ctx, filters);
  const key = shapeKey(shape);
  const values = listValues(ctx, filters);
  const forward: PageWindow = { limit: f.limit, offset: (f.page - 1) * f.limit, isBackward: false };
  const pageOf = (pageKey: string, w: PageWindow) =>
    pageStatement(db, pageKey + (w.isBackward ? 'b' : 'f')).execute({
      ...values,
      limit: w.limit,
      offset: w.offset,
    });
  const page = (w: PageWindow) => pageOf(key, w);
  const countMatches = async (countKey: string) =>
    (await searchCountStatement(db, countKey).execute(values))[0]?.n ?? 0;
  if (isCounted(shape)) {
    let total = searchTotal;
    let pageKey = key;
    let size: number | undefined;
    if (hasSetFilter(shape)) {
      // the set's size says how to read it (ListShape.setForm); alone, it is the total
      size = setSize ?? (await smallestSetSize(db, key, values));
      pageKey = size > smallSetRows ? shapeKey({ ...shape, setForm: 'in' }) : key;
      if (total === undefined) {
        total = isSetAlone(shape) ? size : await countMatches(pageKey);
      }
    }
    if (total !== undefined) {
      // a search of many matches: its page walks the list's index (ListShape.searchForm); its
      // count below keeps the trigram index
      const walks =
        shape.search === 'joined' &&
        total > 0 &&
        ((forward.offset + f.limit) * (await countFromCounters(db, ctx, f))) / total <= walkedSearchEntries;
      const walkKey = walks ? shapeKey({ ...shapeOfKey(pageKey), searchForm: 'walk' }) : pageKey;
      const { items } = await pageOf(walkKey, forward);
      // a full page lies within the known total; a short one ends exactly at it
      const end = forward.offset + items.length;
      const agrees =
        items.length === f.limit ? end <= total : end === total && (items.length > 0 || f.page === 1);
      if (agrees || searchTotal === undefined) {
        return {
          rows: items,
          total,
          isSearchCounted: searchTotal === undefined,
          setSize: size,
        };
      }
    }
    const [{ items }, [counted]] = await Promise.all([
      pageOf(pageKey, forward),
      searchCountStatement(db, pageKey).execute(values),
    ]);
    return { rows: items, total: counted?.n ?? 0, isSearchCounted: true, setSize: size };
  }
  if (forward.offset >= backwardFromRows) {
    const known = await countFromCounters(db, ctx, f);
    if (forward.offset >= known) {
      return { rows: [], total: known };
    }
    if (forward.offset >= known / 2) {
      const limit = Math.min(f.limit, known - forward.offset);
      const backward = await page({ limit, offset: known - forward.offset - limit, isBackward: true });
      if (backward.total === known) {
        return { rows: backward.items, total: known };
      }
    }
  }
  const { items, total } = await page(forward);
  // past the last page there is no row to carry the total (page 1 empty: nothing matches)
  const counted = total ?? (f.page > 1 ? await countFromCounters(db, ctx, f) : 0);
  return { rows: items, total: counted };
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
  const { id, deviceGuid, hostname, ipAddress, status, siteId, osType, architecture } = devices;
  const rows = await db
    .select({ id, deviceGuid, hostname, ipAddress, status, siteId, osType, architecture })
    .from(devices)
    .where(and(inScope(devices, ctx), inArray(devices.id, ids)));
  const position = new Map(ids.map((deviceId, i) => [deviceId, i] as const));
  return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}

export async function listSiteOptions(db: Reader, ctx: Scope): Promise<SiteOption[]> {
  return db
    .select({ id: sites.id, site_name: sites.siteName, site_code: sites.siteCode })
    .from(sites)
    .where(sitesInScope(sites, ctx))
    .orderBy(asc(sites.siteName), asc(sites.id));
}

const recentDevicesStatement = statementCache((db, key) =>
  withRowMapper(
    db
      .select(deviceListColumns)
      .from(devices)
      .leftJoin(sites, eq(sites.id, devices.siteId))
      .where(inScopePlaceholders(devices, key === 'sites'))
      .orderBy(sql`${devices.lastSeen} desc nulls last`, sql`${devices.id} desc nulls last`)
      .limit(p('limit'))
      .prepare(UNNAMED_STATEMENT),
    (rows) => rows.map(listItemOfRow),
  ),
);

/** The devices seen most recently (the dashboard's "recent devices"). */
export async function recentDevices(db: Reader, ctx: Scope, limit: number): Promise<DeviceListItem[]> {
  const statement = recentDevicesStatement(db, isSiteLimited(ctx) ? 'sites' : 'tenant');
  return statement.execute({ ...scopeValues(ctx), limit });
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

/**
 * The list's filter for another walk over the same devices (the CSV export,
 * devices-export.queries.ts): the statement key of its shape, its condition for a key (with
 * placeholders) and the placeholders' values, so the export applies exactly the list's filters.
 */
export function listFilter(ctx: Scope, f: ListFilters) {
  return {
    key: shapeKey(listShape(ctx, f)),
    values: listValues(ctx, f),
    seesNothing: seesNothing(ctx),
    whereOf: (key: string) => listWhere(shapeOfKey(key)),
  };
}
