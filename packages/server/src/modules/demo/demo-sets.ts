import type { RequestContext } from '../../lib/context';
import { DEMO } from './demo.seed';
import type { CustomFieldsService } from '../custom-fields/custom-fields.service';
import type { GroupsService } from '../groups/groups.service';
import type { MaintenanceWindowsService } from '../maintenance-windows/maintenance-windows.service';
import type { PoliciesService } from '../policies/policies.service';
import type { TagsService } from '../tags/tags.service';
import type { AlertsService } from '../alerts/alerts.service';
import type { ChannelsService } from '../notifications/channels.service';
import type { MonitoringService } from '../monitoring/monitoring.service';

// The demo's device sets (docs/product/device-sets.md): tags, a custom field, two groups and a
// weekly policy on the living fleet, made once through the same services the portal calls, as
// the demo administrator would make them.

/** What the demo's monitoring is made through (demo-monitoring.ts). */
export type DemoMonitoringServices = {
  channels: Pick<ChannelsService, 'list' | 'create'>;
  monitoring: Pick<MonitoringService, 'list' | 'create'>;
  alerts: Pick<AlertsService, 'list' | 'acknowledge'>;
};

export type DemoSetsServices = {
  tags: Pick<TagsService, 'create' | 'bulk'>;
  customFields: Pick<CustomFieldsService, 'create' | 'bulkSet'>;
  groups: Pick<GroupsService, 'create'>;
  policies: Pick<PoliciesService, 'create'>;
  windows: Pick<MaintenanceWindowsService, 'create' | 'list'>;
  /** the demo's channel, monitoring policy and acknowledged alert (demo-monitoring.ts) */
  monitoring?: DemoMonitoringServices;
};

/**
 * The demo's site window (docs/product/rollouts.md#maintenance-windows): weeknights at 22:00 for
 * 4 hours in the site's own time zone, made once (before the deployment history, whose job run
 * only inside windows waits for it).
 */
export async function seedDemoSiteWindow(
  services: Pick<DemoSetsServices, 'windows'>,
  ctx: RequestContext,
  siteId: number,
): Promise<boolean> {
  if ((await services.windows.list(ctx, { site_id: siteId })).length > 0) {
    return false;
  }
  await services.windows.create(ctx, {
    name: 'Weeknight maintenance',
    site_id: siteId,
    days: [1, 2, 3, 4, 5],
    start_time: '22:00',
    duration_minutes: 240,
    enabled: true,
  });
  return true;
}

/** The demo administrator acting: an administrator of all sites, from the server itself. */
export function demoAdminContext(
  tenantId: number,
  admin: { id: number; name: string | null; email: string },
): RequestContext {
  return {
    sessionId: null,
    identityId: null,
    userId: admin.id,
    tenantId,
    tenantName: DEMO.tenantName,
    email: admin.email,
    name: admin.name,
    role: 'tenant_admin',
    siteAccessType: 'all',
    siteIds: [],
    ip: '127.0.0.1',
    userAgent: 'Outpost demo',
  };
}

const OWNERS = ['Finance', 'Engineering', 'Front desk', 'Warehouse'];

/**
 * Makes the demo's sets from its online devices (in hostname order) and packages: tags Pilot
 * ring (the first 5 devices), VIP (the next 2) and Kiosk (the next 2); the custom field Asset
 * owner set on the first 12; a dynamic group of the pilot ring (with a Saturday-morning
 * maintenance window) and one of Windows 11 devices; a weekly policy deploying the first package
 * to the pilot ring.
 */
export async function seedDemoSets(
  services: DemoSetsServices,
  ctx: RequestContext,
  fleet: { deviceIds: number[]; packageId: number | null },
): Promise<void> {
  const { deviceIds } = fleet;
  const [pilot, vip, kiosk] = [
    await services.tags.create(ctx, { name: 'Pilot ring', color: 'violet' }),
    await services.tags.create(ctx, { name: 'VIP', color: 'amber' }),
    await services.tags.create(ctx, { name: 'Kiosk', color: 'teal' }),
  ];
  const tagged: [number, number[]][] = [
    [pilot.id, deviceIds.slice(0, 5)],
    [vip.id, deviceIds.slice(5, 7)],
    [kiosk.id, deviceIds.slice(7, 9)],
  ];
  for (const [tagId, ids] of tagged) {
    if (ids.length > 0) {
      await services.tags.bulk(ctx, { device_ids: ids, add: [tagId], remove: [] });
    }
  }
  await services.customFields.create(ctx, {
    key: 'asset_owner',
    name: 'Asset owner',
    field_type: 'select',
    options: OWNERS,
    required: false,
    default_value: null,
  });
  for (const [i, owner] of OWNERS.entries()) {
    const ids = deviceIds.slice(0, 12).filter((_, n) => n % OWNERS.length === i);
    if (ids.length > 0) {
      await services.customFields.bulkSet(ctx, { device_ids: ids, values: { asset_owner: owner } });
    }
  }
  const ring = await services.groups.create(ctx, {
    name: 'Pilot ring',
    description: 'Devices tagged Pilot ring: they get changes first.',
    kind: 'dynamic',
    filter: { match: 'all', conditions: [{ field: 'tag', op: 'has', tag_id: pilot.id }] },
  });
  await services.groups.create(ctx, {
    name: 'Windows 11',
    description: 'Every Windows 11 device.',
    kind: 'dynamic',
    filter: {
      match: 'all',
      conditions: [
        { field: 'os_type', op: 'is', value: 'windows' },
        { field: 'os_version', op: 'contains', value: '11' },
      ],
    },
  });
  // the pilot ring may also take changes early on Saturday mornings (its devices' own time)
  await services.windows.create(ctx, {
    name: 'Saturday early',
    group_id: ring.id,
    days: [6],
    start_time: '06:00',
    duration_minutes: 180,
    enabled: true,
  });
  if (fleet.packageId !== null) {
    await services.policies.create(ctx, {
      name: 'Weekly pilot update',
      description: 'The pilot ring gets the package every Monday and Thursday night.',
      target_type: 'group',
      group_id: ring.id,
      package_id: fleet.packageId,
      trigger: 'schedule',
      schedule: { frequency: 'weekly', time: '02:30', weekdays: [1, 4] },
      enabled: true,
    });
  }
}
