import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { GroupFilter } from '@outpost/contract/groups';
import { deviceGroupMembers, deviceGroups, devices } from '../../db/schema/index';
import { arrayParam, rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { filterSql } from './group-filter.queries';

// The member rows of dynamic groups (docs/product/device-sets.md#groups "Membership"): a group's
// matches are computed in the database, never in the server: one DELETE and one INSERT … SELECT
// for a whole group, one statement for a few devices across all of a tenant's dynamic groups.

/** A dynamic group as membership needs it. */
export type DynamicGroup = { id: number; tenantId: number; siteId: number | null; filter: GroupFilter };

/** The devices a group may hold: its tenant, its owner site, its filter (over FROM devices). */
export function matchSql(group: Pick<DynamicGroup, 'tenantId' | 'siteId' | 'filter'>): SQL {
  const site = group.siteId === null ? sql`` : sql` and ${devices.siteId} = ${group.siteId}`;
  return sql`${devices.tenantId} = ${group.tenantId}${site} and ${filterSql(group.filter)}`;
}

/** A stored filter, read back through the contract; null when it no longer parses. */
export function parseStoredFilter(value: unknown): GroupFilter | null {
  const parsed = GroupFilter.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Parsed filters by group and version (id and updated_at): a device's change reads every dynamic
 * group of its tenant, and parsing tens of filters each time was most of its server CPU.
 */
const parsedFilters = new Map<string, GroupFilter | null>();
const PARSED_FILTERS_MAX = 10_000;

function cachedFilter(id: number, updatedAt: Date, value: unknown): GroupFilter | null {
  const key = `${id}:${updatedAt.getTime()}`;
  let filter = parsedFilters.get(key);
  if (filter === undefined) {
    if (parsedFilters.size >= PARSED_FILTERS_MAX) {
      parsedFilters.clear();
    }
    filter = parseStoredFilter(value);
    parsedFilters.set(key, filter);
  }
  return filter;
}

/** Every dynamic group of a tenant (or of every tenant), with a filter that parses. */
export async function dynamicGroups(ex: Executor, tenantId?: number): Promise<DynamicGroup[]> {
  const rows = await ex
    .select({
      id: deviceGroups.id,
      tenantId: deviceGroups.tenantId,
      siteId: deviceGroups.siteId,
      filter: deviceGroups.filter,
      updatedAt: deviceGroups.updatedAt,
    })
    .from(deviceGroups)
    .where(
      and(
        eq(deviceGroups.kind, 'dynamic'),
        isNotNull(deviceGroups.filter),
        tenantId === undefined ? undefined : eq(deviceGroups.tenantId, tenantId),
      ),
    );
  return rows.flatMap((r) => {
    const filter = cachedFilter(r.id, r.updatedAt, r.filter);
    return filter ? [{ id: r.id, tenantId: r.tenantId, siteId: r.siteId, filter }] : [];
  });
}

/**
 * A group's members made equal to its matches: members that no longer match leave, matches that
 * are not members join (added now); members that still match keep their added_at.
 */
export async function materialiseGroup(ex: Executor, group: DynamicGroup): Promise<void> {
  const match = matchSql(group);
  await ex.execute(sql`delete from ${deviceGroupMembers} m where m.group_id = ${group.id}
    and not exists (select 1 from ${devices} where ${devices.id} = m.device_id and ${match})`);
  await ex.execute(sql`insert into ${deviceGroupMembers} (group_id, device_id, tenant_id)
    select ${group.id}, ${devices.id}, ${devices.tenantId} from ${devices} where ${match}
    on conflict do nothing`);
  await ex
    .update(deviceGroups)
    .set({ evaluatedAt: sql`now()` })
    .where(eq(deviceGroups.id, group.id));
}

/**
 * Some devices of one tenant re-evaluated against the given dynamic groups in one statement: the
 * matches of every (group, device) pair, the members among those devices that no longer match
 * removed, the new matches added. Returns how many rows were added and removed.
 */
export async function reevaluateDevices(
  ex: Executor,
  tenantId: number,
  groups: DynamicGroup[],
  deviceIds: number[],
): Promise<{ added: number; removed: number }> {
  if (groups.length === 0 || deviceIds.length === 0) {
    return { added: 0, removed: 0 };
  }
  const ids = arrayParam(deviceIds, 'int');
  const branches = groups.map(
    (g) =>
      sql`select ${g.id}::int as group_id, ${devices.id} as device_id from ${devices} where ${devices.id} = any(${ids}) and ${matchSql(g)}`,
  );
  const groupIds = arrayParam(
    groups.map((g) => g.id),
    'int',
  );
  const result = await ex.execute(sql`with matches as (${sql.join(branches, sql` union all `)}),
    removed as (
      delete from ${deviceGroupMembers} x
      where x.tenant_id = ${tenantId} and x.group_id = any(${groupIds}) and x.device_id = any(${ids})
        and not exists (select 1 from matches where matches.group_id = x.group_id and matches.device_id = x.device_id)
      returning 1
    ),
    added as (
      insert into ${deviceGroupMembers} (group_id, device_id, tenant_id)
      select group_id, device_id, ${tenantId} from matches
      on conflict do nothing
      returning 1
    )
    select (select count(*) from added)::int as added, (select count(*) from removed)::int as removed`);
  const [row] = rowsOf<{ added: number; removed: number }>(result);
  return { added: Number(row?.added ?? 0), removed: Number(row?.removed ?? 0) };
}
