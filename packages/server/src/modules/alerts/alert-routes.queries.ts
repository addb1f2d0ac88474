import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AlertRouteInput } from '@outpost/contract/alerts';
import {
  alertRouteChannels,
  alertRoutes,
  deviceGroupMembers,
  deviceGroups,
  notificationChannels,
  sites,
} from '../../db/schema/index';
import type { Executor } from '../../lib/db';

// Routing rules (docs/product/monitoring.md#routing-rules): which alerts go to which channels.

export type RouteRow = typeof alertRoutes.$inferSelect & {
  channels: { id: number; name: string; enabled: boolean }[];
  targetName: string | null;
};

export async function listRoutes(ex: Executor, tenantId: number): Promise<RouteRow[]> {
  const rows = await ex
    .select({ route: alertRoutes, siteName: sites.siteName, groupName: deviceGroups.name })
    .from(alertRoutes)
    .leftJoin(sites, eq(sites.id, alertRoutes.siteId))
    .leftJoin(deviceGroups, eq(deviceGroups.id, alertRoutes.groupId))
    .where(eq(alertRoutes.tenantId, tenantId))
    .orderBy(asc(alertRoutes.name), asc(alertRoutes.id));
  if (rows.length === 0) {
    return [];
  }
  const links = await ex
    .select({
      routeId: alertRouteChannels.routeId,
      id: notificationChannels.id,
      name: notificationChannels.name,
      enabled: notificationChannels.enabled,
    })
    .from(alertRouteChannels)
    .innerJoin(notificationChannels, eq(notificationChannels.id, alertRouteChannels.channelId))
    .where(
      inArray(
        alertRouteChannels.routeId,
        rows.map((r) => r.route.id),
      ),
    )
    .orderBy(asc(notificationChannels.name));
  return rows.map((r) => ({
    ...r.route,
    targetName: r.siteName ?? r.groupName ?? null,
    channels: links
      .filter((l) => l.routeId === r.route.id)
      .map(({ id, name, enabled }) => ({ id, name, enabled })),
  }));
}

/** The channels among `ids` that belong to the tenant. */
export async function tenantChannelIds(ex: Executor, tenantId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await ex
    .select({ id: notificationChannels.id })
    .from(notificationChannels)
    .where(and(eq(notificationChannels.tenantId, tenantId), inArray(notificationChannels.id, ids)));
  return rows.map((r) => r.id);
}

type RouteValues = Omit<AlertRouteInput, 'channel_ids' | 'site_id' | 'group_id'> & {
  siteId: number | null;
  groupId: number | null;
};

export async function insertRoute(ex: Executor, tenantId: number, v: RouteValues, channelIds: number[]) {
  const [row] = await ex
    .insert(alertRoutes)
    .values({
      tenantId,
      name: v.name,
      enabled: v.enabled,
      severities: v.severities,
      conditions: v.conditions,
      targetType: v.target_type,
      siteId: v.siteId,
      groupId: v.groupId,
    })
    .returning({ id: alertRoutes.id });
  if (!row) {
    throw new Error('route insert answered nothing');
  }
  await ex.insert(alertRouteChannels).values(channelIds.map((channelId) => ({ routeId: row.id, channelId })));
  return row.id;
}

export async function updateRoute(ex: Executor, id: number, v: RouteValues, channelIds: number[]) {
  await ex
    .update(alertRoutes)
    .set({
      name: v.name,
      enabled: v.enabled,
      severities: v.severities,
      conditions: v.conditions,
      targetType: v.target_type,
      siteId: v.siteId,
      groupId: v.groupId,
    })
    .where(eq(alertRoutes.id, id));
  await ex.delete(alertRouteChannels).where(eq(alertRouteChannels.routeId, id));
  await ex.insert(alertRouteChannels).values(channelIds.map((channelId) => ({ routeId: id, channelId })));
}

export async function deleteRoute(ex: Executor, tenantId: number, id: number) {
  const rows = await ex
    .delete(alertRoutes)
    .where(and(eq(alertRoutes.tenantId, tenantId), eq(alertRoutes.id, id)))
    .returning({ id: alertRoutes.id });
  return rows.length > 0;
}

/** The groups among `groupIds` the device is a member of. */
export async function groupsOfDevice(
  ex: Executor,
  deviceId: number,
  groupIds: number[],
): Promise<Set<number>> {
  if (groupIds.length === 0) {
    return new Set();
  }
  const rows = await ex
    .select({ groupId: deviceGroupMembers.groupId })
    .from(deviceGroupMembers)
    .where(and(eq(deviceGroupMembers.deviceId, deviceId), inArray(deviceGroupMembers.groupId, groupIds)));
  return new Set(rows.map((r) => r.groupId));
}

/** Every enabled channel of the tenant (the routing when it has no rules). */
export async function enabledChannels(ex: Executor, tenantId: number): Promise<number[]> {
  const rows = await ex
    .select({ id: notificationChannels.id })
    .from(notificationChannels)
    .where(and(eq(notificationChannels.tenantId, tenantId), eq(notificationChannels.enabled, true)));
  return rows.map((r) => r.id);
}

export async function groupInTenant(ex: Executor, tenantId: number, id: number) {
  const [row] = await ex
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.tenantId, tenantId), eq(deviceGroups.id, id)));
  return row ?? null;
}

export async function siteInTenant(ex: Executor, tenantId: number, id: number) {
  const [row] = await ex
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.tenantId, tenantId), eq(sites.id, id)));
  return row ?? null;
}
