import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import {
  deviceCheckStates,
  deviceGroupMembers,
  deviceGroups,
  devices,
  monitoringChecks,
  monitoringPolicies,
  sites,
} from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// The monitoring module's SQL (docs/product/monitoring.md#monitoring-policies). It writes
// monitoring_policies, monitoring_checks and device_check_states; it reads devices, sites and
// group memberships (which devices a policy's target holds).

export type MonitoringPolicyRow = typeof monitoringPolicies.$inferSelect;
export type NewMonitoringPolicy = typeof monitoringPolicies.$inferInsert;
export type CheckRow = typeof monitoringChecks.$inferSelect;
export type NewCheck = Omit<typeof monitoringChecks.$inferInsert, 'id'>;
export type CheckStateRow = typeof deviceCheckStates.$inferSelect;

/** The policies the caller sees: a site-limited caller sees their sites' and their groups' ones. */
const visible = (scope: Scope): SQL => inScope(monitoringPolicies, scope);

export type PolicyListRow = MonitoringPolicyRow & { siteName: string | null; groupName: string | null };

function listSelect(db: Reader) {
  return db
    .select({ policy: monitoringPolicies, siteName: sites.siteName, groupName: deviceGroups.name })
    .from(monitoringPolicies)
    .leftJoin(sites, eq(sites.id, monitoringPolicies.siteId))
    .leftJoin(deviceGroups, eq(deviceGroups.id, monitoringPolicies.groupId));
}

const flat = (r: { policy: MonitoringPolicyRow; siteName: string | null; groupName: string | null }) => ({
  ...r.policy,
  siteName: r.siteName,
  groupName: r.groupName,
});

export async function listPolicies(db: Reader, scope: Scope, id?: number): Promise<PolicyListRow[]> {
  const rows = await listSelect(db)
    .where(and(visible(scope), id === undefined ? undefined : eq(monitoringPolicies.id, id)))
    .orderBy(asc(monitoringPolicies.name), asc(monitoringPolicies.id));
  return rows.map(flat);
}

/** The checks of these policies, in each policy's order. */
export async function checksOf(db: Reader, policyIds: number[]): Promise<CheckRow[]> {
  if (policyIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(monitoringChecks)
    .where(inArray(monitoringChecks.policyId, policyIds))
    .orderBy(asc(monitoringChecks.policyId), asc(monitoringChecks.position), asc(monitoringChecks.id));
}

export async function lockPolicy(
  tx: Executor,
  scope: Scope,
  id: number,
): Promise<MonitoringPolicyRow | null> {
  const [row] = await tx
    .select()
    .from(monitoringPolicies)
    .where(and(visible(scope), eq(monitoringPolicies.id, id)))
    .for('update');
  return row ?? null;
}

/** True when another policy of the tenant has this name (whatever the case). */
export async function nameTaken(db: Reader, tenant: TenantScope, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: monitoringPolicies.id })
    .from(monitoringPolicies)
    .where(
      and(
        inTenant(monitoringPolicies, tenant),
        sql`lower(${monitoringPolicies.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(monitoringPolicies.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertPolicy(tx: Executor, values: NewMonitoringPolicy): Promise<MonitoringPolicyRow> {
  return firstOrThrow(
    await tx.insert(monitoringPolicies).values(values).returning(),
    'insert monitoring policy',
  );
}

export async function updatePolicy(
  tx: Executor,
  id: number,
  values: Partial<NewMonitoringPolicy>,
): Promise<MonitoringPolicyRow> {
  return firstOrThrow(
    await tx
      .update(monitoringPolicies)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(monitoringPolicies.id, id))
      .returning(),
    'update monitoring policy',
  );
}

export async function deletePolicy(tx: Executor, id: number): Promise<void> {
  await tx.delete(monitoringPolicies).where(eq(monitoringPolicies.id, id));
}

/**
 * A policy's checks made equal to `wanted` (in its order): a check with the id of one of the
 * policy's checks is changed in place (its devices' states stay), the others are inserted, and the
 * policy's checks not named are deleted (their states with them).
 */
export async function replaceChecks(
  tx: Executor,
  policy: Pick<MonitoringPolicyRow, 'id' | 'tenantId'>,
  wanted: (Omit<NewCheck, 'policyId' | 'tenantId' | 'position'> & { id?: number })[],
): Promise<void> {
  const kept = new Set(wanted.flatMap((c) => (c.id === undefined ? [] : [c.id])));
  const existing = await tx
    .select({ id: monitoringChecks.id })
    .from(monitoringChecks)
    .where(eq(monitoringChecks.policyId, policy.id));
  const gone = existing.map((c) => c.id).filter((id) => !kept.has(id));
  if (gone.length > 0) {
    await tx.delete(monitoringChecks).where(inArray(monitoringChecks.id, gone));
  }
  for (const [position, { id, ...check }] of wanted.entries()) {
    if (id === undefined) {
      await tx
        .insert(monitoringChecks)
        .values({ ...check, position, policyId: policy.id, tenantId: policy.tenantId });
    } else {
      await tx
        .update(monitoringChecks)
        .set({ ...check, position })
        .where(and(eq(monitoringChecks.id, id), eq(monitoringChecks.policyId, policy.id)));
    }
  }
}

/** The ids of this policy's checks. */
export async function checkIdsOf(db: Reader, policyId: number): Promise<Set<number>> {
  const rows = await db
    .select({ id: monitoringChecks.id })
    .from(monitoringChecks)
    .where(eq(monitoringChecks.policyId, policyId));
  return new Set(rows.map((r) => r.id));
}

// ---------- targets ----------

type Target = Pick<MonitoringPolicyRow, 'tenantId' | 'targetType' | 'siteId' | 'groupId'>;

/** The devices a target holds now (a site-owned group: that site's devices only), by id. */
export async function targetDeviceIds(db: Reader, target: Target): Promise<number[]> {
  const tenant = inTenant(devices, target);
  if (target.targetType === 'group') {
    const rows = await db
      .select({ id: devices.id })
      .from(deviceGroupMembers)
      .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
      .where(
        and(
          tenant,
          eq(deviceGroupMembers.groupId, target.groupId ?? 0),
          target.siteId === null ? undefined : eq(devices.siteId, target.siteId),
        ),
      );
    return rows.map((r) => r.id);
  }
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(tenant, target.targetType === 'site' ? eq(devices.siteId, target.siteId ?? 0) : undefined));
  return rows.map((r) => r.id);
}

/** True when the tenant has an enabled policy whose target is a site or a group. */
export async function hasNarrowPolicies(db: Reader, tenantId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: monitoringPolicies.id })
    .from(monitoringPolicies)
    .where(
      and(
        eq(monitoringPolicies.tenantId, tenantId),
        eq(monitoringPolicies.enabled, true),
        ne(monitoringPolicies.targetType, 'tenant'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export type DeviceCheckRow = {
  deviceId: number;
  check: CheckRow;
  policyName: string;
};

/**
 * Every check of every enabled policy whose target holds one of these devices, in one statement
 * (docs/product/monitoring.md#monitoring-policies): the tenant, the device's site, a group it is a
 * member of (a site-owned group only for that site's devices). Ordered by device, policy, position.
 */
export async function checksOfDevices(db: Reader, deviceIds: number[]): Promise<DeviceCheckRow[]> {
  if (deviceIds.length === 0) {
    return [];
  }
  const p = monitoringPolicies;
  const member = sql`exists (select 1 from ${deviceGroupMembers} where ${deviceGroupMembers.groupId} = ${p.groupId} and ${deviceGroupMembers.deviceId} = ${devices.id})`;
  const targets = or(
    eq(p.targetType, 'tenant'),
    and(eq(p.targetType, 'site'), eq(p.siteId, devices.siteId)),
    and(eq(p.targetType, 'group'), or(sql`${p.siteId} is null`, eq(p.siteId, devices.siteId)), member),
  );
  const rows = await db
    .select({ deviceId: devices.id, check: monitoringChecks, policyName: p.name })
    .from(devices)
    .innerJoin(p, and(eq(p.tenantId, devices.tenantId), eq(p.enabled, true), targets))
    .innerJoin(monitoringChecks, eq(monitoringChecks.policyId, p.id))
    .where(inArray(devices.id, deviceIds))
    .orderBy(asc(devices.id), asc(p.id), asc(monitoringChecks.position), asc(monitoringChecks.id));
  return rows;
}

// ---------- devices and their check states ----------

export type DeviceFacts = {
  id: number;
  tenantId: number;
  siteId: number | null;
  deviceGuid: string;
  hostname: string | null;
};

const deviceColumns = {
  id: devices.id,
  tenantId: devices.tenantId,
  siteId: devices.siteId,
  deviceGuid: devices.deviceGuid,
  hostname: devices.hostname,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A device the caller sees, by id or guid (another tenant's or site's reads as none). */
export async function findScopedDevice(
  db: Reader,
  scope: Scope,
  idOrGuid: string,
): Promise<DeviceFacts | null> {
  const id = /^\d{1,9}$/.test(idOrGuid) ? Number(idOrGuid) : null;
  if (id === null && !UUID.test(idOrGuid)) {
    return null;
  }
  const [row] = await db
    .select(deviceColumns)
    .from(devices)
    .where(and(inScope(devices, scope), id === null ? eq(devices.deviceGuid, idOrGuid) : eq(devices.id, id)));
  return row ?? null;
}

export async function findDevice(db: Reader, id: number): Promise<DeviceFacts | null> {
  const [row] = await db.select(deviceColumns).from(devices).where(eq(devices.id, id));
  return row ?? null;
}

export async function statesOf(db: Reader, deviceId: number, checkIds: number[]): Promise<CheckStateRow[]> {
  if (checkIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(deviceCheckStates)
    .where(and(eq(deviceCheckStates.deviceId, deviceId), inArray(deviceCheckStates.checkId, checkIds)));
}

/** The device's states of these checks, locked for the change that follows. */
export async function lockStates(
  tx: Executor,
  deviceId: number,
  checkIds: number[],
): Promise<CheckStateRow[]> {
  if (checkIds.length === 0) {
    return [];
  }
  return tx
    .select()
    .from(deviceCheckStates)
    .where(and(eq(deviceCheckStates.deviceId, deviceId), inArray(deviceCheckStates.checkId, checkIds)))
    .for('update');
}

/** Writes states in one statement (a row per check; `since` as the caller decided it). */
export async function upsertStates(tx: Executor, rows: CheckStateRow[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await tx
    .insert(deviceCheckStates)
    .values(rows)
    .onConflictDoUpdate({
      target: [deviceCheckStates.deviceId, deviceCheckStates.checkId],
      set: {
        state: sql`excluded.state`,
        output: sql`excluded.output`,
        checkedAt: sql`excluded.checked_at`,
        since: sql`excluded.since`,
      },
    });
}
