import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { deviceGroupMembers, deviceGroups, devices, maintenanceWindows, sites } from '../../db/schema/index';
import { arrayParam, rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inScope, inScopeOrShared, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Maintenance windows (docs/product/rollouts.md#maintenance-windows): a site's windows are seen by
// whoever sees the site, a group's by whoever sees the group (tenant-wide groups by everyone).
// Written only here.

export type WindowRow = typeof maintenanceWindows.$inferSelect & {
  siteName: string | null;
  groupName: string | null;
  /** the site's zone: the window's site, or the owner site of the window's group */
  timezone: string | null;
  /** the owner site of the window's group (null: tenant-wide or a site window) */
  groupSiteId: number | null;
};

export type WindowValues = Pick<
  typeof maintenanceWindows.$inferInsert,
  'siteId' | 'groupId' | 'name' | 'days' | 'startMinute' | 'durationMinutes' | 'enabled'
>;

const groupSite = sql`group_site`;

/** The windows the caller sees: site windows of sites in scope, group windows of groups in scope. */
function visible(scope: Scope): SQL {
  return and(
    inTenant(maintenanceWindows, scope),
    or(
      and(isNotNull(maintenanceWindows.siteId), inScope(maintenanceWindows, scope)),
      and(isNotNull(maintenanceWindows.groupId), inScopeOrShared(deviceGroups, scope)),
    ),
  )!;
}

function selectWindows(ex: Executor) {
  return ex
    .select({
      window: maintenanceWindows,
      siteName: sites.siteName,
      groupName: deviceGroups.name,
      groupSiteId: deviceGroups.siteId,
      siteZone: sites.timezone,
      groupZone: sql<
        string | null
      >`(select ${groupSite}.timezone from ${sites} ${groupSite} where ${groupSite}.id = ${deviceGroups.siteId})`,
    })
    .from(maintenanceWindows)
    .leftJoin(sites, eq(sites.id, maintenanceWindows.siteId))
    .leftJoin(deviceGroups, eq(deviceGroups.id, maintenanceWindows.groupId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectWindows>['where']>>[number];

const toRow = (r: Selected): WindowRow => ({
  ...r.window,
  siteName: r.siteName,
  groupName: r.groupName,
  groupSiteId: r.groupSiteId,
  timezone: r.window.siteId !== null ? r.siteZone : r.groupZone,
});

export async function listWindows(
  ex: Executor,
  scope: Scope,
  f: { siteId?: number; groupId?: number },
): Promise<WindowRow[]> {
  const rows = await selectWindows(ex)
    .where(
      and(
        visible(scope),
        f.siteId === undefined ? undefined : eq(maintenanceWindows.siteId, f.siteId),
        f.groupId === undefined ? undefined : eq(maintenanceWindows.groupId, f.groupId),
      ),
    )
    .orderBy(asc(maintenanceWindows.startMinute), asc(maintenanceWindows.id));
  return rows.map(toRow);
}

export async function findWindow(ex: Executor, scope: Scope, id: number): Promise<WindowRow | null> {
  const [row] = await selectWindows(ex).where(and(visible(scope), eq(maintenanceWindows.id, id)));
  return row ? toRow(row) : null;
}

/** A site of the caller's scope: its name and zone, or null. */
export async function findSiteOf(ex: Executor, scope: Scope, siteId: number) {
  const [row] = await ex
    .select({ id: sites.id, name: sites.siteName, timezone: sites.timezone })
    .from(sites)
    .where(and(inTenant(sites, scope), eq(sites.id, siteId)));
  if (!row) {
    return null;
  }
  const limited = scope.siteAccessType === 'specific';
  return limited && !scope.siteIds.includes(row.id) ? null : row;
}

/** A group the caller sees: its name and owner site, or null. */
export async function findGroupOf(ex: Executor, scope: Scope, groupId: number) {
  const [row] = await ex
    .select({ id: deviceGroups.id, name: deviceGroups.name, siteId: deviceGroups.siteId })
    .from(deviceGroups)
    .where(and(inScopeOrShared(deviceGroups, scope), eq(deviceGroups.id, groupId)));
  return row ?? null;
}

export async function insertWindow(ex: Executor, tenant: TenantScope, values: WindowValues): Promise<number> {
  const [row] = await ex
    .insert(maintenanceWindows)
    .values({ ...values, tenantId: tenant.tenantId })
    .returning({ id: maintenanceWindows.id });
  return row!.id;
}

export async function updateWindow(ex: Executor, tenant: TenantScope, id: number, values: WindowValues) {
  await ex
    .update(maintenanceWindows)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(inTenant(maintenanceWindows, tenant), eq(maintenanceWindows.id, id)));
}

export async function deleteWindow(ex: Executor, tenant: TenantScope, id: number) {
  await ex
    .delete(maintenanceWindows)
    .where(and(inTenant(maintenanceWindows, tenant), eq(maintenanceWindows.id, id)));
}

export type DeviceWindowRow = {
  deviceId: number;
  timezone: string | null;
  days: number[];
  startMinute: number;
  durationMinutes: number;
};

/**
 * The enabled windows of these devices: their site's and those of the groups they are members
 * of, each with the device's site zone (docs/decisions/2026-11-27-maintenance-window-union.md).
 */
export async function enabledWindowsOfDevices(ex: Executor, deviceIds: number[]): Promise<DeviceWindowRow[]> {
  if (deviceIds.length === 0) {
    return [];
  }
  const result = await ex.execute(sql`
    select d.id as device_id, s.timezone, w.days, w.start_minute, w.duration_minutes
    from ${devices} d
    left join ${sites} s on s.id = d.site_id
    join ${maintenanceWindows} w on w.tenant_id = d.tenant_id and w.enabled and (
      w.site_id = d.site_id
      or w.group_id in (select m.group_id from ${deviceGroupMembers} m where m.device_id = d.id)
    )
    where d.id = any(${arrayParam(deviceIds, 'int')})`);
  return rowsOf<{
    device_id: number;
    timezone: string | null;
    days: number[] | string;
    start_minute: number;
    duration_minutes: number;
  }>(result).map((r) => ({
    deviceId: Number(r.device_id),
    timezone: r.timezone,
    days: parseDays(r.days),
    startMinute: Number(r.start_minute),
    durationMinutes: Number(r.duration_minutes),
  }));
}

/** int[] comes back as an array (PGlite, postgres.js) or as its text form "{1,2}". */
function parseDays(days: number[] | string): number[] {
  if (Array.isArray(days)) {
    return days.map(Number);
  }
  return days
    .replace(/[{}]/g, '')
    .split(',')
    .filter((d) => d !== '')
    .map(Number);
}
