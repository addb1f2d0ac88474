import { maintenanceWindowMessages as messages } from '@outpost/contract/maintenance-windows';
import type {
  MaintenanceWindow,
  MaintenanceWindowInput,
  MaintenanceWindowList,
} from '@outpost/contract/maintenance-windows';
import { startMinuteOf, startTimeOf, windowState, windowZone } from '@outpost/contract/window-schedule';
import type { WindowSpec } from '@outpost/contract/window-schedule';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { forbidden, notFound } from '../../lib/errors';
import { mayChange } from '../groups/group-access';
import {
  deleteWindow,
  enabledWindowsOfDevices,
  findGroupOf,
  findSiteOf,
  findWindow,
  insertWindow,
  listWindows,
  updateWindow,
} from './maintenance-windows.queries';
import type { WindowRow, WindowValues } from './maintenance-windows.queries';

// Maintenance windows (docs/product/rollouts.md#maintenance-windows). Every member reads the
// windows of the sites and groups they see. A site's windows are changed by those who may change
// the site (administrators; a site-limited one only their sites); a group's by those who may change
// the group (a site's group: anyone who sees that site; a tenant-wide group: administrators of all
// sites). Others' windows are not found.

/** A device's windows and the zone they are read in (its site's; UTC without one). */
export type DeviceWindows = { timeZone: string; windows: WindowSpec[] };

export function toWindow(row: WindowRow, now: number): MaintenanceWindow {
  const zone = row.siteId !== null || row.groupSiteId !== null ? windowZone(row.timezone) : null;
  const next =
    zone === null || !row.enabled
      ? null
      : windowState(
          [{ days: row.days, startMinute: row.startMinute, durationMinutes: row.durationMinutes }],
          zone,
          now,
        ).nextOpensAt;
  return {
    id: row.id,
    name: row.name,
    site_id: row.siteId,
    site_name: row.siteName,
    group_id: row.groupId,
    group_name: row.groupName,
    days: row.days,
    start_time: startTimeOf(row.startMinute),
    duration_minutes: row.durationMinutes,
    enabled: row.enabled,
    timezone: zone,
    next_opens_at: next === null ? null : new Date(next).toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

const valuesOf = (b: MaintenanceWindowInput): WindowValues => ({
  siteId: b.site_id ?? null,
  groupId: b.group_id ?? null,
  name: b.name,
  days: b.days,
  startMinute: startMinuteOf(b.start_time),
  durationMinutes: b.duration_minutes,
  enabled: b.enabled,
});

const auditValues = (v: WindowValues) => ({
  name: v.name,
  site_id: v.siteId,
  group_id: v.groupId,
  days: v.days,
  start_time: startTimeOf(v.startMinute),
  duration_minutes: v.durationMinutes,
  enabled: v.enabled,
});

export function createMaintenanceWindowsService({
  db,
  now = () => Date.now(),
}: {
  db: Db;
  now?: () => number;
}) {
  /** The owner the body names, checked: its audit sites and words. */
  async function owner(ex: Executor, ctx: RequestContext, v: WindowValues) {
    if (v.siteId !== null && v.siteId !== undefined) {
      requireAdmin(ctx);
      const site = await findSiteOf(ex, ctx, v.siteId);
      if (!site) {
        throw notFound(messages.siteNotFound, 'SITE_NOT_FOUND');
      }
      return { siteIds: [site.id], label: `site ${site.name}` };
    }
    const group = await findGroupOf(ex, ctx, v.groupId!);
    if (!group) {
      throw notFound(messages.groupNotFound, 'GROUP_NOT_FOUND');
    }
    assertMayChangeGroup(ctx, group.siteId);
    return { siteIds: group.siteId === null ? null : [group.siteId], label: `group ${group.name}` };
  }

  async function loadOne(ex: Executor, ctx: RequestContext, id: number): Promise<WindowRow> {
    const row = await findWindow(ex, ctx, id);
    if (!row) {
      throw notFound(messages.notFound, 'MAINTENANCE_WINDOW_NOT_FOUND');
    }
    return row;
  }

  /** The window's current owner allows the caller to change it. */
  function assertMayChange(ctx: RequestContext, row: WindowRow) {
    if (row.siteId !== null) {
      requireAdmin(ctx);
    } else {
      assertMayChangeGroup(ctx, row.groupSiteId);
    }
  }

  const describe = (v: WindowValues) =>
    `${v.name}: ${v.days.length} day${v.days.length === 1 ? '' : 's'} at ${startTimeOf(v.startMinute)} for ${v.durationMinutes} min`;

  return {
    async list(
      ctx: RequestContext,
      f: { site_id?: number; group_id?: number },
    ): Promise<MaintenanceWindowList> {
      const rows = await listWindows(db, ctx, { siteId: f.site_id, groupId: f.group_id });
      const at = now();
      return rows.map((r) => toWindow(r, at));
    },

    async create(ctx: RequestContext, body: MaintenanceWindowInput): Promise<MaintenanceWindow> {
      const values = valuesOf(body);
      return db.transaction(async (tx) => {
        const o = await owner(tx, ctx, values);
        const id = await insertWindow(tx, ctx, values);
        await writeAudit(tx, ctx, {
          action: 'Create Maintenance Window',
          resourceType: 'maintenance_window',
          resourceId: id,
          details: `Created maintenance window ${describe(values)} (${o.label})`,
          newValues: auditValues(values),
          siteIds: o.siteIds,
        });
        return toWindow(await loadOne(tx, ctx, id), now());
      });
    },

    async update(ctx: RequestContext, id: number, body: MaintenanceWindowInput): Promise<MaintenanceWindow> {
      const values = valuesOf(body);
      return db.transaction(async (tx) => {
        const before = await loadOne(tx, ctx, id);
        assertMayChange(ctx, before);
        const o = await owner(tx, ctx, values);
        await updateWindow(tx, ctx, id, values);
        await writeAudit(tx, ctx, {
          action: 'Update Maintenance Window',
          resourceType: 'maintenance_window',
          resourceId: id,
          details: `Updated maintenance window ${describe(values)} (${o.label})`,
          oldValues: auditValues(before),
          newValues: auditValues(values),
          siteIds: o.siteIds,
        });
        return toWindow(await loadOne(tx, ctx, id), now());
      });
    },

    async remove(ctx: RequestContext, id: number): Promise<{ id: number }> {
      return db.transaction(async (tx) => {
        const row = await loadOne(tx, ctx, id);
        assertMayChange(ctx, row);
        await deleteWindow(tx, ctx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Maintenance Window',
          resourceType: 'maintenance_window',
          resourceId: id,
          details: `Deleted maintenance window ${describe(row)} (${row.siteId !== null ? `site ${row.siteName}` : `group ${row.groupName}`})`,
          oldValues: auditValues(row),
          siteIds: row.siteId !== null ? [row.siteId] : row.groupSiteId !== null ? [row.groupSiteId] : null,
        });
        return { id };
      });
    },

    /**
     * The engine's port: each device's enabled windows (its site's and its groups') with its
     * site's zone; devices without any are absent.
     */
    async windowsFor(ex: Executor, deviceIds: number[]): Promise<Map<number, DeviceWindows>> {
      const out = new Map<number, DeviceWindows>();
      for (const r of await enabledWindowsOfDevices(ex, deviceIds)) {
        let entry = out.get(r.deviceId);
        if (!entry) {
          entry = { timeZone: windowZone(r.timezone), windows: [] };
          out.set(r.deviceId, entry);
        }
        entry.windows.push({ days: r.days, startMinute: r.startMinute, durationMinutes: r.durationMinutes });
      }
      return out;
    },
  };
}

/** A group's windows follow the group's own rule (modules/groups/group-access.ts). */
function assertMayChangeGroup(ctx: RequestContext, groupSiteId: number | null) {
  if (!mayChange(ctx, { siteId: groupSiteId })) {
    throw forbidden(messages.groupReadOnly, 'GROUP_READ_ONLY');
  }
}

export type MaintenanceWindowsService = ReturnType<typeof createMaintenanceWindowsService>;
