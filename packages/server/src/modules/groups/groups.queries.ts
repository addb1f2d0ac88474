import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type {
  GroupDevice,
  GroupFilter,
  GroupListFilters,
  GroupMembersFilters,
} from '@outpost/contract/groups';
import { GROUP_PREVIEW_SAMPLE } from '@outpost/contract/groups';
import { deviceGroupMembers, deviceGroups, devices, sites } from '../../db/schema/index';
import { arrayParam, firstOrThrow } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inScope, inScopeOrShared, isSiteLimited } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';
import { containsPattern } from './group-filter.queries';
import { matchSql } from './membership.queries';

// The groups' reads and writes (docs/product/device-sets.md#groups). Every read is scoped: a group
// is visible to callers of all sites, and to a site-limited caller when it is tenant-wide or
// owned by one of their sites (inScopeOrShared); member counts and member lists hold only the
// devices the caller may see (inScope on devices).

export type GroupRow = typeof deviceGroups.$inferSelect & { siteName: string | null };
export type GroupValues = Pick<
  typeof deviceGroups.$inferInsert,
  'name' | 'description' | 'kind' | 'siteId' | 'filter' | 'createdBy' | 'createdByName'
>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The members of a group the caller may see, counted (SQL for a select list). */
function visibleMemberCount(scope: Scope): SQL<number> {
  if (!isSiteLimited(scope)) {
    return sql<number>`(select count(*) from ${deviceGroupMembers} m where m.group_id = ${deviceGroups.id})::int`;
  }
  return sql<number>`(select count(*) from ${deviceGroupMembers} m join ${devices} on ${devices.id} = m.device_id
    where m.group_id = ${deviceGroups.id} and ${inScope(devices, scope)})::int`;
}

const groupColumns = { row: deviceGroups, siteName: sites.siteName };

export async function listGroups(ex: Executor, scope: Scope, f: GroupListFilters) {
  const where = and(
    inScopeOrShared(deviceGroups, scope),
    f.search ? ilike(deviceGroups.name, `%${escapeLike(f.search)}%`) : undefined,
    f.kind ? eq(deviceGroups.kind, f.kind) : undefined,
  );
  const rows = await ex
    .select({ ...groupColumns, memberCount: visibleMemberCount(scope) })
    .from(deviceGroups)
    .leftJoin(sites, eq(sites.id, deviceGroups.siteId))
    .where(where)
    .orderBy(asc(sql`lower(${deviceGroups.name})`), asc(deviceGroups.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  const [total] = await ex.select({ n: count() }).from(deviceGroups).where(where);
  return {
    rows: rows.map((r) => ({ ...r.row, siteName: r.siteName, memberCount: r.memberCount })),
    total: total?.n ?? 0,
  };
}

/** A group the caller may see, with its visible member count; `lock` takes it for a change. */
export async function findGroup(ex: Executor, scope: Scope, id: number, opts: { lock?: boolean } = {}) {
  const query = ex
    .select({ ...groupColumns, memberCount: visibleMemberCount(scope) })
    .from(deviceGroups)
    .leftJoin(sites, eq(sites.id, deviceGroups.siteId))
    .where(and(inScopeOrShared(deviceGroups, scope), eq(deviceGroups.id, id)));
  const [r] = opts.lock ? await query.for('update', { of: deviceGroups }) : await query;
  return r ? { ...r.row, siteName: r.siteName, memberCount: r.memberCount } : null;
}

export async function insertGroup(ex: Executor, tenantId: number, values: GroupValues) {
  const rows = await ex
    .insert(deviceGroups)
    .values({ tenantId, ...values })
    .returning({ id: deviceGroups.id });
  return firstOrThrow(rows, 'insert device group').id;
}

export async function updateGroup(
  ex: Executor,
  id: number,
  values: Partial<Pick<GroupValues, 'name' | 'description' | 'siteId' | 'filter'>>,
) {
  await ex
    .update(deviceGroups)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(deviceGroups.id, id));
}

export async function deleteGroup(ex: Executor, id: number) {
  await ex.delete(deviceGroups).where(eq(deviceGroups.id, id));
}

/** A site of the caller's tenant, by id: its name, or null. */
export async function findSiteName(ex: Executor, scope: TenantScope, siteId: number) {
  const [row] = await ex
    .select({ name: sites.siteName })
    .from(sites)
    .where(and(eq(sites.tenantId, scope.tenantId), eq(sites.id, siteId)));
  return row?.name ?? null;
}

const deviceColumns = {
  id: devices.id,
  deviceGuid: devices.deviceGuid,
  hostname: devices.hostname,
  status: devices.status,
  osType: devices.osType,
  osVersion: devices.osVersion,
  siteId: devices.siteId,
  siteName: sites.siteName,
  lastSeen: devices.lastSeen,
};

type DeviceRow = {
  id: number;
  deviceGuid: string;
  hostname: string | null;
  status: GroupDevice['status'];
  osType: string | null;
  osVersion: string | null;
  siteId: number | null;
  siteName: string | null;
  lastSeen: Date | null;
};

export const toGroupDevice = (r: DeviceRow): GroupDevice => ({
  id: r.id,
  device_guid: r.deviceGuid,
  hostname: r.hostname,
  status: r.status,
  os_type: r.osType,
  os_version: r.osVersion,
  site_id: r.siteId,
  site_name: r.siteName,
  last_seen: r.lastSeen ? r.lastSeen.toISOString() : null,
});

/** One page of a group's members the caller may see, searched by hostname, IP or serial. */
export async function listMembers(ex: Executor, scope: Scope, groupId: number, f: GroupMembersFilters) {
  const where = and(
    eq(deviceGroupMembers.groupId, groupId),
    inScope(devices, scope),
    f.search ? sql`${devices.searchText} like ${containsPattern(f.search)}` : undefined,
  );
  const rows = await ex
    .select({ ...deviceColumns, addedAt: deviceGroupMembers.addedAt })
    .from(deviceGroupMembers)
    .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(where)
    .orderBy(asc(sql`lower(${devices.hostname})`), asc(devices.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  const [total] = await ex
    .select({ n: count() })
    .from(deviceGroupMembers)
    .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** The devices a filter matches now, in the caller's scope (and the owner site): count and a sample. */
export async function previewMatches(
  ex: Executor,
  scope: Scope,
  filter: GroupFilter,
  siteId: number | null,
): Promise<{ count: number; devices: GroupDevice[] }> {
  const where = and(inScope(devices, scope), matchSql({ tenantId: scope.tenantId, siteId, filter }));
  const [total] = await ex.select({ n: count() }).from(devices).where(where);
  const sample = await ex
    .select(deviceColumns)
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(where)
    .orderBy(asc(sql`lower(${devices.hostname})`), asc(devices.id))
    .limit(GROUP_PREVIEW_SAMPLE);
  return { count: total?.n ?? 0, devices: sample.map(toGroupDevice) };
}

/** Devices of the caller's scope among `ids`: id, site and hostname. */
export function devicesInScope(ex: Executor, scope: Scope, ids: number[]) {
  return ex
    .select({ id: devices.id, siteId: devices.siteId, hostname: devices.hostname })
    .from(devices)
    .where(and(inScope(devices, scope), inArray(devices.id, ids)));
}

/** Static members added (devices already members keep their added_at); how many joined. */
export async function addMembers(ex: Executor, tenantId: number, groupId: number, deviceIds: number[]) {
  const rows = await ex
    .insert(deviceGroupMembers)
    .values(deviceIds.map((deviceId) => ({ groupId, deviceId, tenantId })))
    .onConflictDoNothing()
    .returning({ id: deviceGroupMembers.deviceId });
  return rows.length;
}

/** Members removed; how many left. */
export async function removeMembers(ex: Executor, groupId: number, deviceIds: number[]) {
  const rows = await ex
    .delete(deviceGroupMembers)
    .where(
      and(
        eq(deviceGroupMembers.groupId, groupId),
        sql`${deviceGroupMembers.deviceId} = any(${arrayParam(deviceIds, 'int')})`,
      ),
    )
    .returning({ id: deviceGroupMembers.deviceId });
  return rows.length;
}

/** The group's members the caller may see, for a deployment: id order, at most `limit` + 1. */
export function memberDeviceIds(ex: Executor, scope: Scope, groupId: number, limit: number) {
  return ex
    .select({ id: devices.id })
    .from(deviceGroupMembers)
    .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
    .where(and(eq(deviceGroupMembers.groupId, groupId), inScope(devices, scope)))
    .orderBy(asc(devices.id))
    .limit(limit + 1);
}

/** A static group moved to a site keeps only that site's devices. */
export async function removeMembersOutsideSite(ex: Executor, groupId: number, siteId: number) {
  await ex.execute(sql`delete from ${deviceGroupMembers} m where m.group_id = ${groupId}
    and not exists (select 1 from ${devices} where ${devices.id} = m.device_id and ${devices.siteId} = ${siteId})`);
}

/** Every member of a group, by id (what a group change tells those who follow membership). */
export async function allMemberIds(ex: Executor, groupId: number): Promise<number[]> {
  const rows = await ex
    .select({ id: deviceGroupMembers.deviceId })
    .from(deviceGroupMembers)
    .where(eq(deviceGroupMembers.groupId, groupId));
  return rows.map((r) => r.id);
}
