import { and, asc, eq, inArray, isNotNull, like, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deploymentPackages, devices, enrollmentTokens, sites, tenants } from '../../db/schema/index';

export async function findTenantIdByName(db: Db, tenantName: string): Promise<number | null> {
  const [tenant] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.tenantName, tenantName))
    .limit(1);
  return tenant?.id ?? null;
}

/** Raises the tenant's agent limit to `atLeast` when it has a lower one (never lowers it). */
export async function raiseMaxAgents(db: Db, tenantId: number, atLeast: number): Promise<void> {
  await db
    .update(tenants)
    .set({ maxAgents: atLeast })
    .where(and(eq(tenants.id, tenantId), isNotNull(tenants.maxAgents), lt(tenants.maxAgents, atLeast)));
}

export function listFirstSites(db: Db, tenantId: number, limit: number) {
  return db
    .select({ id: sites.id, code: sites.siteCode, timezone: sites.timezone })
    .from(sites)
    .where(eq(sites.tenantId, tenantId))
    .orderBy(asc(sites.id))
    .limit(limit);
}

export type NewEnrollmentToken = {
  name: string;
  siteId: number;
  tokenHash: string;
  tokenPrefix: string;
  createdByName: string;
};

/** Replaces the tenant's tokens whose name starts with namePrefix by the given ones. */
export async function replaceEnrollmentTokens(
  db: Db,
  tenantId: number,
  namePrefix: string,
  tokens: NewEnrollmentToken[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(enrollmentTokens)
      .where(and(eq(enrollmentTokens.tenantId, tenantId), like(enrollmentTokens.name, `${namePrefix}%`)));
    if (tokens.length > 0) {
      await tx.insert(enrollmentTokens).values(tokens.map((token) => ({ tenantId, ...token })));
    }
  });
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

/** The demo tenant's sites, in the order given. */
export function insertDemoSites(db: Db, values: (typeof sites.$inferInsert)[]) {
  return db.insert(sites).values(values).returning({ id: sites.id });
}
