import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deploymentPackages, devices, sites, tags, tenants, users } from '../../db/schema/index';

export async function findTenantIdByName(db: Db, tenantName: string): Promise<number | null> {
  const [tenant] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.tenantName, tenantName))
    .limit(1);
  return tenant?.id ?? null;
}

export function listFirstSites(db: Db, tenantId: number, limit: number) {
  return db
    .select({ id: sites.id, code: sites.siteCode, timezone: sites.timezone })
    .from(sites)
    .where(eq(sites.tenantId, tenantId))
    .orderBy(asc(sites.id))
    .limit(limit);
}

/** The demo tenant's connected devices, for its deployment history. */
export function listOnlineDevices(db: Db, tenantId: number, limit: number) {
  return db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      ipAddress: devices.ipAddress,
      siteId: devices.siteId,
      osType: devices.osType,
    })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), inArray(devices.status, ['online', 'loggedin'])))
    .orderBy(asc(devices.hostname))
    .limit(limit);
}

export async function listPackageIds(db: Db, tenantId: number): Promise<number[]> {
  const rows = await db
    .select({ id: deploymentPackages.id })
    .from(deploymentPackages)
    .where(and(eq(deploymentPackages.tenantId, tenantId), eq(deploymentPackages.isTemplate, false)))
    .orderBy(asc(deploymentPackages.id));
  return rows.map((r) => r.id);
}

/** The demo administrator's user row, to act as them when the demo makes its device sets. */
export async function findUser(db: Db, tenantId: number, email: string) {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)))
    .limit(1);
  return row ?? null;
}

/** Whether the tenant has any tag yet: the demo's device sets are made once. */
export async function hasTags(db: Db, tenantId: number): Promise<boolean> {
  const [row] = await db.select({ id: tags.id }).from(tags).where(eq(tags.tenantId, tenantId)).limit(1);
  return Boolean(row);
}
