import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Device, DeviceListItem } from '@outpost/contract/devices';
import { devices, sites } from '../../db/schema/index';
import { isoOfTimestamp } from '../../lib/db';
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

/** Where each of deviceListColumns is in a row the driver sends (drizzle selects them in key order). */
const at = Object.fromEntries(Object.keys(deviceListColumns).map((key, i) => [key, i])) as Record<
  keyof typeof deviceListColumns,
  number
>;
/** How many columns deviceListColumns are: a statement's own columns come after them. */
export const LIST_COLUMN_COUNT = Object.keys(deviceListColumns).length;
const isoOrNull = (v: unknown) => (v === null ? null : isoOfTimestamp(v));

/**
 * toListItem from the driver's array row of a statement that selects deviceListColumns first
 * (lib/db withRowMapper): the same item without drizzle's mapping (integers arrive as numbers,
 * text as strings, timestamps as PostgreSQL's text).
 */
export function listItemOfRow(r: unknown[]): DeviceListItem {
  return {
    id: r[at.id] as number,
    device_guid: r[at.deviceGuid] as string,
    hostname: r[at.hostname] as string | null,
    ip_address: r[at.ipAddress] as string | null,
    os_type: r[at.osType] as string | null,
    os_version: r[at.osVersion] as string | null,
    architecture: r[at.architecture] as string | null,
    status: r[at.status] as DeviceListItem['status'],
    last_seen: isoOrNull(r[at.lastSeen]),
    agent_version: r[at.agentVersion] as string | null,
    site_id: r[at.siteId] as number | null,
    site_name: r[at.siteName] as string | null,
    serial_number: r[at.serialNumber] as string | null,
    created_at: isoOfTimestamp(r[at.createdAt]),
    updated_at: isoOfTimestamp(r[at.updatedAt]),
    manufacturer: r[at.manufacturer] as string | null,
    model: r[at.model] as string | null,
    last_inventory_update: isoOrNull(r[at.lastInventoryUpdate]),
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
