import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import {
  deploymentPackages,
  deviceGroupMembers,
  deviceGroups,
  devices,
  policies,
  policyDeviceRuns,
  policyRuns,
  sites,
} from '../../db/schema/index';
import type { Db } from '../../db/client';
import { firstOrThrow } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inScopeOrShared, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// The policies module's SQL (docs/product/device-sets.md#automation-policies). It writes
// policies, policy_runs and policy_device_runs; it reads devices, sites, groups and packages.

export type PolicyRow = typeof policies.$inferSelect;
export type NewPolicy = typeof policies.$inferInsert;

/** The policies the caller sees: their tenant's, and for a site-limited caller their sites' ones. */
const visible = (scope: Scope): SQL => inScope(policies, scope);

export type PolicyListRow = PolicyRow & {
  packageName: string | null;
  siteName: string | null;
  groupName: string | null;
};

function listSelect(db: Reader) {
  return db
    .select({
      policy: policies,
      packageName: deploymentPackages.name,
      siteName: sites.siteName,
      groupName: deviceGroups.name,
    })
    .from(policies)
    .leftJoin(deploymentPackages, eq(deploymentPackages.id, policies.packageId))
    .leftJoin(sites, eq(sites.id, policies.siteId))
    .leftJoin(deviceGroups, eq(deviceGroups.id, policies.groupId));
}

const flat = (r: {
  policy: PolicyRow;
  packageName: string | null;
  siteName: string | null;
  groupName: string | null;
}): PolicyListRow => ({
  ...r.policy,
  packageName: r.packageName,
  siteName: r.siteName,
  groupName: r.groupName,
});

export async function listPolicies(db: Reader, scope: Scope): Promise<PolicyListRow[]> {
  const rows = await listSelect(db).where(visible(scope)).orderBy(asc(policies.name), asc(policies.id));
  return rows.map(flat);
}

export async function findPolicy(db: Reader, scope: Scope, id: number): Promise<PolicyListRow | null> {
  const [row] = await listSelect(db)
    .where(and(visible(scope), eq(policies.id, id)))
    .limit(1);
  return row ? flat(row) : null;
}

export async function lockPolicy(tx: Executor, scope: Scope, id: number): Promise<PolicyRow | null> {
  const [row] = await tx
    .select()
    .from(policies)
    .where(and(visible(scope), eq(policies.id, id)))
    .for('update');
  return row ?? null;
}

export async function insertPolicy(tx: Executor, values: NewPolicy): Promise<PolicyRow> {
  return firstOrThrow(await tx.insert(policies).values(values).returning(), 'insert policy');
}

export async function updatePolicy(tx: Executor, id: number, values: Partial<NewPolicy>): Promise<PolicyRow> {
  return firstOrThrow(
    await tx
      .update(policies)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(policies.id, id))
      .returning(),
    'update policy',
  );
}

export async function deletePolicy(tx: Executor, id: number): Promise<void> {
  await tx.delete(policies).where(eq(policies.id, id));
}

// ---------- what a policy may name ----------

export async function findSite(db: Reader, scope: Scope, id: number) {
  const [row] = await db
    .select({ id: sites.id, name: sites.siteName })
    .from(sites)
    .where(and(inScope({ tenantId: sites.tenantId, siteId: sites.id }, scope), eq(sites.id, id)));
  return row ?? null;
}

/** A group the caller sees: a tenant-wide group (site null) only for a caller of all sites. */
export async function findGroup(db: Reader, scope: Scope, id: number) {
  const [row] = await db
    .select({ id: deviceGroups.id, name: deviceGroups.name, siteId: deviceGroups.siteId })
    .from(deviceGroups)
    .where(and(inScope(deviceGroups, scope), eq(deviceGroups.id, id)));
  return row ?? null;
}

/** A package the caller sees (shared, or one of their sites'), with what a policy needs of it. */
export async function findPackage(db: Reader, scope: Scope, id: number) {
  const [row] = await db
    .select({
      id: deploymentPackages.id,
      name: deploymentPackages.name,
      siteId: deploymentPackages.siteId,
      version: deploymentPackages.packageVersion,
    })
    .from(deploymentPackages)
    .where(and(inScopeOrShared(deploymentPackages, scope), eq(deploymentPackages.id, id)));
  return row ?? null;
}

// ---------- the target's members ----------

export type MemberRow = {
  id: number;
  siteId: number | null;
  deviceGuid: string;
  hostname: string | null;
  ipAddress: string | null;
  osType: string | null;
  architecture: string | null;
  /** the site's time zone, null when the device has no site or the site none */
  zone: string | null;
  /** when the device entered the target: its enrolment, or the group's added_at */
  joinedAt: Date;
};

/**
 * The devices a policy's target holds now (a site-owned group: that site's devices only);
 * `joinedAfter`: only those that entered it since.
 */
export async function targetMembers(
  db: Reader,
  policy: Pick<PolicyRow, 'tenantId' | 'targetType' | 'siteId' | 'groupId'>,
  joinedAfter?: Date,
): Promise<MemberRow[]> {
  const columns = {
    id: devices.id,
    siteId: devices.siteId,
    deviceGuid: devices.deviceGuid,
    hostname: devices.hostname,
    ipAddress: devices.ipAddress,
    osType: devices.osType,
    architecture: devices.architecture,
    zone: sites.timezone,
  };
  const tenant = inTenant(devices, { tenantId: policy.tenantId });
  if (policy.targetType === 'group') {
    if (policy.groupId === null) {
      return [];
    }
    return db
      .select({ ...columns, joinedAt: deviceGroupMembers.addedAt })
      .from(deviceGroupMembers)
      .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
      .leftJoin(sites, eq(sites.id, devices.siteId))
      .where(
        and(
          tenant,
          eq(deviceGroupMembers.groupId, policy.groupId),
          policy.siteId === null ? undefined : eq(devices.siteId, policy.siteId),
          joinedAfter ? gt(deviceGroupMembers.addedAt, joinedAfter) : undefined,
        ),
      )
      .orderBy(asc(devices.id));
  }
  return db
    .select({ ...columns, joinedAt: devices.createdAt })
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(
      and(
        tenant,
        policy.targetType === 'site' ? eq(devices.siteId, policy.siteId ?? 0) : undefined,
        joinedAfter ? gt(devices.createdAt, joinedAfter) : undefined,
      ),
    )
    .orderBy(asc(devices.id));
}

/** Every enabled policy with this trigger, of every tenant (the scheduler's pass). */
export async function enabledPolicies(db: Reader, trigger: PolicyRow['trigger']): Promise<PolicyRow[]> {
  return db
    .select()
    .from(policies)
    .where(and(eq(policies.enabled, true), eq(policies.trigger, trigger)))
    .orderBy(asc(policies.id));
}

export async function packageVersionOf(db: Reader, tenant: TenantScope, packageId: number) {
  const [row] = await db
    .select({ version: deploymentPackages.packageVersion })
    .from(deploymentPackages)
    .where(and(inTenant(deploymentPackages, tenant), eq(deploymentPackages.id, packageId)));
  return row?.version ?? null;
}

// ---------- claims ----------

/** Claims one occurrence in one zone; false when another instance (or an earlier pass) has it. */
export async function claimOccurrence(
  tx: Executor,
  run: { policyId: number; tenantId: number; zone: string; occurrenceAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(policyRuns)
    .values(run)
    .onConflictDoNothing()
    .returning({ policyId: policyRuns.policyId });
  return rows.length > 0;
}

export async function recordOccurrence(
  tx: Executor,
  run: { policyId: number; zone: string; occurrenceAt: Date; devices: number },
): Promise<void> {
  await tx
    .update(policyRuns)
    .set({ devices: run.devices })
    .where(
      and(
        eq(policyRuns.policyId, run.policyId),
        eq(policyRuns.zone, run.zone),
        eq(policyRuns.occurrenceAt, run.occurrenceAt),
      ),
    );
  await tx.update(policies).set({ lastRunAt: new Date() }).where(eq(policies.id, run.policyId));
}

/** Claims the devices not yet run for this policy and package version; answers the claimed ids. */
export async function claimDevices(
  tx: Executor,
  claim: { policyId: number; tenantId: number; packageVersion: string; deviceIds: number[] },
): Promise<number[]> {
  if (claim.deviceIds.length === 0) {
    return [];
  }
  const rows = await tx
    .insert(policyDeviceRuns)
    .values(
      claim.deviceIds.map((deviceId) => ({
        policyId: claim.policyId,
        tenantId: claim.tenantId,
        deviceId,
        packageVersion: claim.packageVersion,
      })),
    )
    .onConflictDoNothing()
    .returning({ deviceId: policyDeviceRuns.deviceId });
  return rows.map((r) => r.deviceId);
}

/** The devices already run for this policy and package version (so a pass claims only new ones). */
export async function devicesRun(db: Reader, policyId: number, packageVersion: string): Promise<Set<number>> {
  const rows = await db
    .select({ deviceId: policyDeviceRuns.deviceId })
    .from(policyDeviceRuns)
    .where(and(eq(policyDeviceRuns.policyId, policyId), eq(policyDeviceRuns.packageVersion, packageVersion)));
  return new Set(rows.map((r) => r.deviceId));
}

export async function recordDeviceRuns(
  tx: Executor,
  run: { policyId: number; packageVersion: string; jobs: { id: number; deviceIds: number[] }[] },
): Promise<void> {
  for (const job of run.jobs) {
    await tx
      .update(policyDeviceRuns)
      .set({ jobId: job.id })
      .where(
        and(
          eq(policyDeviceRuns.policyId, run.policyId),
          eq(policyDeviceRuns.packageVersion, run.packageVersion),
          inArray(policyDeviceRuns.deviceId, job.deviceIds),
        ),
      );
  }
  await tx.update(policies).set({ lastRunAt: new Date() }).where(eq(policies.id, run.policyId));
}

/** The time zones of the sites the target's devices are in (null: a device without one). */
export async function targetZones(
  db: Pick<Db, 'selectDistinct'>,
  policy: Pick<PolicyRow, 'tenantId' | 'targetType' | 'siteId' | 'groupId'>,
): Promise<(string | null)[]> {
  const tenant = inTenant(devices, { tenantId: policy.tenantId });
  if (policy.targetType === 'group') {
    const rows = await db
      .selectDistinct({ zone: sites.timezone })
      .from(deviceGroupMembers)
      .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
      .leftJoin(sites, eq(sites.id, devices.siteId))
      .where(
        and(
          tenant,
          eq(deviceGroupMembers.groupId, policy.groupId ?? 0),
          policy.siteId === null ? undefined : eq(devices.siteId, policy.siteId),
        ),
      );
    return rows.map((r) => r.zone);
  }
  const rows = await db
    .selectDistinct({ zone: sites.timezone })
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .where(and(tenant, policy.targetType === 'site' ? eq(devices.siteId, policy.siteId ?? 0) : undefined));
  return rows.map((r) => r.zone);
}
