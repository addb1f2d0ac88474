import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Device } from '@outpost/contract/devices';
import type { Db } from '../../db/client';
import { devices, sites } from '../../db/schema/index';
import type { RequestContext } from '../../plugins/auth';

// Device queries shared by the agent gateway, the portal socket and the devices API (issue 4).
// Queries only query (STYLE.md); authorisation is the caller's, through deviceScope().

type Reader = Pick<Db, 'select'>;

/**
 * The one tenant + site scope of devices for a caller (ARCHITECTURE §3): their tenant, and for
 * site_access_type 'specific' only the assigned sites (a device without a site is then hidden).
 */
export function deviceScope(ctx: Pick<RequestContext, 'tenantId' | 'siteAccessType' | 'siteIds'>): SQL {
  const tenant = eq(devices.tenantId, ctx.tenantId);
  if (ctx.siteAccessType !== 'specific') {
    return tenant;
  }
  if (ctx.siteIds.length === 0) {
    return and(tenant, sql`false`)!;
  }
  return and(tenant, inArray(devices.siteId, ctx.siteIds))!;
}

/** May this caller see a device of that site? The same rule as deviceScope, for one row. */
export function canSeeSite(
  ctx: Pick<RequestContext, 'siteAccessType' | 'siteIds'>,
  siteId: number | null,
): boolean {
  return ctx.siteAccessType !== 'specific' || (siteId !== null && ctx.siteIds.includes(siteId));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const deviceColumns = {
  id: devices.id,
  deviceGuid: devices.deviceGuid,
  tenantId: devices.tenantId,
  hostname: devices.hostname,
  ipAddress: devices.ipAddress,
  osType: devices.osType,
  osVersion: devices.osVersion,
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
  hardwareInfo: devices.hardwareInfo,
  networkInfo: devices.networkInfo,
};

type Columns = typeof deviceColumns;
// siteName comes through a left join, so it may be null even though the column is not.
export type DeviceSelection = {
  [K in Exclude<keyof Columns, 'siteName'>]: Columns[K]['_']['notNull'] extends true
    ? Columns[K]['_']['data']
    : Columns[K]['_']['data'] | null;
} & { siteName: string | null };

/** A selected row as the API shows it (spec: core §3 Device). */
export function toDevice(r: DeviceSelection): Device {
  return {
    id: r.id,
    device_guid: r.deviceGuid,
    hostname: r.hostname,
    ip_address: r.ipAddress,
    os_type: r.osType,
    os_version: r.osVersion,
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
    hardware_info: r.hardwareInfo,
    network_info: r.networkInfo,
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
    .where(eq(devices.tenantId, tenantId));
  return row?.n ?? 0;
}
