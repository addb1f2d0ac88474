import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Device, DeviceListItem } from '@outpost/contract/devices';
import { devices, sites } from '../../db/schema/index';
import type { Reader } from '../../lib/db';
import { canSeeSite, inScope, inTenant, tenantOnly } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// Device queries shared by the agent gateway, the portal socket and the devices API.
// Queries only query (STYLE.md); authorisation is the caller's, through lib/scope.

/**
 * The tenant + site scope of devices for a caller (docs/product/administration.md#site-scope), kept under this name for the
 * live socket; it is lib/scope's inScope applied to the devices table.
 */
export function deviceScope(ctx: Scope): SQL {
  return inScope(devices, ctx);
}

/** May this caller see a device of that site? The same rule as deviceScope, for one row. */
export { canSeeSite };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The columns of a list row (docs/product/devices.md#device-fields). */
export const deviceListColumns = {
  id: devices.id,
  deviceGuid: devices.deviceGuid,
  tenantId: devices.tenantId,
  hostname: devices.hostname,
  ipAddress: devices.ipAddress,
  osType: devices.osType,
  osVersion: devices.osVersion,
  architecture: devices.architecture,
  status: devices.status,
  lastSeen: devices.lastSeen,
  agentVersion: devices.agentVersion,
  siteId: devices.siteId,
  siteName: sites.siteName,
  serialNumber: devices.serialNumber,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
  manufacturer: devices.manufacturer,
  model: devices.model,
  lastInventoryUpdate: devices.lastInventoryUpdate,
};

export const deviceColumns = {
  ...deviceListColumns,
  hardwareInfo: devices.hardwareInfo,
  networkInfo: devices.networkInfo,
  notReported: devices.notReported,
};

type Selected<Columns extends Record<string, { _: { notNull: boolean; data: unknown } }>> = {
  [K in Exclude<keyof Columns, 'siteName'>]: Columns[K]['_']['notNull'] extends true
    ? Columns[K]['_']['data']
    : Columns[K]['_']['data'] | null;
} & { siteName: string | null };
// siteName comes through a left join, so it may be null even though the column is not.
export type DeviceListSelection = Selected<typeof deviceListColumns>;
export type DeviceSelection = Selected<typeof deviceColumns>;

/**
 * A selected list row as the API shows it. Written out field by field: it runs for every row of
 * every device list page, and one object literal is the cheapest way to build it.
 */
export function toListItem(r: DeviceListSelection): DeviceListItem {
  return {
    id: r.id,
    device_guid: r.deviceGuid,
    hostname: r.hostname,
    ip_address: r.ipAddress,
    os_type: r.osType,
    os_version: r.osVersion,
    architecture: r.architecture,
    status: r.status,
    last_seen: iso(r.lastSeen),
    agent_version: r.agentVersion,
    site_id: r.siteId,
    site_name: r.siteName,
    serial_number: r.serialNumber,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    manufacturer: r.manufacturer,
    model: r.model,
    last_inventory_update: iso(r.lastInventoryUpdate),
  };
}

/** A selected row as the API shows it (docs/product/devices.md#device-fields). */
export function toDevice(r: DeviceSelection): Device {
  return {
    ...toListItem(r),
    hardware_info: r.hardwareInfo,
    network_info: r.networkInfo,
    not_reported: r.notReported,
  };
}

/** One device by guid within a scope (deviceScope(ctx) or a bare tenant condition). */
export async function findDeviceByGuid(db: Reader, scope: SQL, deviceGuid: string): Promise<Device | null> {
  const [row] = await db
    .select(deviceColumns)
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(and(scope, eq(devices.deviceGuid, deviceGuid)))
    .limit(1);
  return row ? toDevice(row) : null;
}

/** Only what the portal socket needs to authorise a subscription. */
export async function findDeviceScopeByGuid(
  db: Reader,
  deviceGuid: string,
): Promise<{ id: number; tenantId: number; siteId: number | null } | null> {
  const [row] = await db
    .select({ id: devices.id, tenantId: devices.tenantId, siteId: devices.siteId })
    .from(devices)
    .where(eq(devices.deviceGuid, deviceGuid))
    .limit(1);
  return row ?? null;
}

export async function countTenantDevices(db: Reader, tenantId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(devices)
    .where(inTenant(devices, tenantOnly(tenantId)));
  return row?.n ?? 0;
}
