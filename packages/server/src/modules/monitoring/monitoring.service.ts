import { checkMessages as messages, describeCheck } from '@outpost/contract/checks';
import type {
  DeviceCheck,
  MonitoringPolicy,
  MonitoringPolicyInput,
  MonitoringPolicyUpdateInput,
} from '@outpost/contract/checks';
import { messages as deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { requireAdmin } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { conflict, notFound } from '../../lib/errors';
import { assertMayManage, resolveTarget } from '../policies/policy-access';
import type { ResolvedTarget } from '../policies/policy-access';
import type { CheckDistribution } from './check-distribution';
import {
  checkIdsOf,
  checksOf,
  deletePolicy,
  findScopedDevice,
  insertPolicy,
  listPolicies,
  lockPolicy,
  nameTaken,
  replaceChecks,
  statesOf,
  targetDeviceIds,
  updatePolicy,
} from './monitoring.queries';
import type { CheckRow, MonitoringPolicyRow, PolicyListRow } from './monitoring.queries';

// Monitoring policies (docs/product/monitoring.md#monitoring-policies): list, read, create,
// change, delete, and a device's checks with their states. Reads are for every member (their
// scope's policies); changes are for administrators, a site-limited one only for their sites'
// and groups' targets (the automation policies' rule, policies/policy-access.ts). Every change is
// audited in its transaction; afterwards the devices of the old and new target get their new set.

export type MonitoringServiceDeps = {
  db: Db;
  distribution: Pick<CheckDistribution, 'publish' | 'deviceChecks'>;
};

type CheckList = MonitoringPolicyInput['checks'];

function targetName(row: PolicyListRow): string {
  switch (row.targetType) {
    case 'tenant':
      return 'All devices';
    case 'site':
      return row.siteName ?? 'Deleted site';
    case 'group':
      return row.groupName ?? 'Deleted group';
  }
}

const toCheck = (c: CheckRow) => ({
  id: c.id,
  policy_id: c.policyId,
  name: c.name,
  config: c.config,
  interval_seconds: c.intervalSeconds,
  failures_before_alert: c.failuresBeforeAlert,
  severity: c.severity,
});

function toPolicy(row: PolicyListRow, checks: CheckRow[]): MonitoringPolicy {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    target: { type: row.targetType, site_id: row.siteId, group_id: row.groupId, name: targetName(row) },
    enabled: row.enabled,
    offline_alert_minutes: row.offlineAlertMinutes,
    offline_severity: row.offlineSeverity,
    checks: checks.map(toCheck),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const auditValues = (p: MonitoringPolicyRow, checks: CheckList | undefined) => ({
  name: p.name,
  target_type: p.targetType,
  site_id: p.siteId,
  group_id: p.groupId,
  enabled: p.enabled,
  offline_alert_minutes: p.offlineAlertMinutes,
  offline_severity: p.offlineSeverity,
  ...(checks && { checks: checks.map((c) => ({ id: c.id ?? null, name: c.name, config: c.config })) }),
});

const checkValues = (checks: CheckList) =>
  checks.map((c) => ({
    id: c.id,
    name: c.name,
    config: c.config,
    intervalSeconds: c.interval_seconds,
    failuresBeforeAlert: c.failures_before_alert,
    severity: c.severity,
  }));

/** A unique constraint refused the statement (PostgreSQL 23505; Drizzle may wrap the driver's error). */
const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Runs a change; a name another policy took meanwhile is 409 rather than 500. */
async function named<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(messages.nameTaken, 'MONITORING_POLICY_NAME_TAKEN');
    }
    throw err;
  }
}

async function assertNameFree(tx: Executor, ctx: RequestContext, name: string, exceptId?: number) {
  if (await nameTaken(tx, ctx, name, exceptId)) {
    throw conflict(messages.nameTaken, 'MONITORING_POLICY_NAME_TAKEN');
  }
}

/** The checks a change keeps must be this policy's (another policy's check id is not found). */
async function assertOwnChecks(tx: Executor, policyId: number | null, checks: CheckList) {
  const named = checks.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  if (named.length === 0) {
    return;
  }
  const own = policyId === null ? new Set<number>() : await checkIdsOf(tx, policyId);
  if (named.some((id) => !own.has(id)) || new Set(named).size !== named.length) {
    throw notFound(messages.checkNotFound, 'CHECK_NOT_FOUND');
  }
}

/** The policy a change is about: an administrator's, within their scope, or 404/403. */
async function lockForChange(tx: Executor, ctx: RequestContext, id: number) {
  requireAdmin(ctx);
  const row = await lockPolicy(tx, ctx, id);
  if (!row) {
    throw notFound(messages.policyNotFound, 'MONITORING_POLICY_NOT_FOUND');
  }
  assertMayManage(ctx, row);
  return row;
}

/** `update`: what the body names replaces; answers the devices of the old and the new target. */
async function updateOne(
  tx: Executor,
  ctx: RequestContext,
  id: number,
  body: MonitoringPolicyUpdateInput,
): Promise<number[]> {
  const before = await lockForChange(tx, ctx, id);
  const target: ResolvedTarget =
    body.target_type === undefined
      ? before
      : await resolveTarget(tx, ctx, {
          target_type: body.target_type,
          site_id: body.site_id,
          group_id: body.group_id,
        });
  assertMayManage(ctx, target);
  if (body.name !== undefined) {
    await assertNameFree(tx, ctx, body.name, id);
  }
  if (body.checks !== undefined) {
    await assertOwnChecks(tx, id, body.checks);
  }
  const after = await updatePolicy(tx, id, {
    name: body.name ?? before.name,
    description: body.description === undefined ? before.description : body.description?.trim() || null,
    targetType: target.targetType,
    siteId: target.siteId,
    groupId: target.groupId,
    enabled: body.enabled ?? before.enabled,
    offlineAlertMinutes:
      body.offline_alert_minutes === undefined ? before.offlineAlertMinutes : body.offline_alert_minutes,
    offlineSeverity: body.offline_severity ?? before.offlineSeverity,
  });
  if (body.checks !== undefined) {
    await replaceChecks(tx, after, checkValues(body.checks));
  }
  const enabledChanged = before.enabled !== after.enabled;
  await writeAudit(tx, ctx, {
    action: enabledChanged
      ? after.enabled
        ? 'Enable Monitoring Policy'
        : 'Disable Monitoring Policy'
      : 'Update Monitoring Policy',
    resourceType: 'monitoring_policy',
    resourceId: id,
    details: `Updated ${after.name}`,
    oldValues: auditValues(before, undefined),
    newValues: auditValues(after, body.checks),
    siteIds: [before.siteId, after.siteId],
  });
  // the devices that ran the old set and those that run the new one
  return [
    ...(before.enabled ? await targetDeviceIds(tx, before) : []),
    ...(after.enabled ? await targetDeviceIds(tx, after) : []),
  ];
}

export function createMonitoringService({ db, distribution }: MonitoringServiceDeps) {
  async function load(ctx: RequestContext, id: number): Promise<MonitoringPolicy> {
    const [row] = await listPolicies(db, ctx, id);
    if (!row) {
      throw notFound(messages.policyNotFound, 'MONITORING_POLICY_NOT_FOUND');
    }
    return toPolicy(row, await checksOf(db, [row.id]));
  }

  return {
    async list(ctx: RequestContext): Promise<MonitoringPolicy[]> {
      const rows = await listPolicies(db, ctx);
      const checks = await checksOf(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((r) =>
        toPolicy(
          r,
          checks.filter((c) => c.policyId === r.id),
        ),
      );
    },

    get: load,

    async create(ctx: RequestContext, body: MonitoringPolicyInput): Promise<MonitoringPolicy> {
      requireAdmin(ctx);
      const { id, devices } = await named(() =>
        db.transaction(async (tx) => {
          const target = await resolveTarget(tx, ctx, body);
          assertMayManage(ctx, target);
          await assertNameFree(tx, ctx, body.name);
          await assertOwnChecks(tx, null, body.checks);
          const row = await insertPolicy(tx, {
            tenantId: ctx.tenantId,
            name: body.name,
            description: body.description?.trim() || null,
            ...target,
            enabled: body.enabled,
            offlineAlertMinutes: body.offline_alert_minutes,
            offlineSeverity: body.offline_severity,
            createdBy: ctx.userId,
          });
          await replaceChecks(tx, row, checkValues(body.checks));
          await writeAudit(tx, ctx, {
            action: 'Create Monitoring Policy',
            resourceType: 'monitoring_policy',
            resourceId: row.id,
            details: `Created ${row.name} (${body.checks.length} check${body.checks.length === 1 ? '' : 's'})`,
            newValues: auditValues(row, body.checks),
            siteIds: [row.siteId],
          });
          return { id: row.id, devices: row.enabled ? await targetDeviceIds(tx, row) : [] };
        }),
      );
      await distribution.publish(devices);
      return load(ctx, id);
    },

    async update(
      ctx: RequestContext,
      id: number,
      body: MonitoringPolicyUpdateInput,
    ): Promise<MonitoringPolicy> {
      const devices = await named(() => db.transaction((tx) => updateOne(tx, ctx, id, body)));
      await distribution.publish(devices);
      return load(ctx, id);
    },

    async remove(ctx: RequestContext, id: number): Promise<{ id: number }> {
      const devices = await db.transaction(async (tx) => {
        const before = await lockForChange(tx, ctx, id);
        const held = before.enabled ? await targetDeviceIds(tx, before) : [];
        await deletePolicy(tx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Monitoring Policy',
          resourceType: 'monitoring_policy',
          resourceId: id,
          details: `Deleted ${before.name}`,
          oldValues: auditValues(before, undefined),
          siteIds: [before.siteId],
        });
        return held;
      });
      await distribution.publish(devices);
      return { id };
    },

    /** A device's checks with their last states; another tenant's or site's device is 404. */
    async deviceChecks(ctx: RequestContext, idOrGuid: string): Promise<DeviceCheck[]> {
      const device = await findScopedDevice(db, ctx, idOrGuid);
      if (!device) {
        throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
      }
      const checks = await distribution.deviceChecks(db, device.id);
      const states = new Map(
        (
          await statesOf(
            db,
            device.id,
            checks.map((c) => c.check.id),
          )
        ).map((s) => [s.checkId, s]),
      );
      return checks.map(({ check, policyName }) => {
        const state = states.get(check.id);
        return {
          check_id: check.id,
          policy_id: check.policyId,
          policy_name: policyName,
          name: check.name,
          type: check.config.type,
          summary: describeCheck(check.config),
          severity: check.severity,
          interval_seconds: check.intervalSeconds,
          state: state?.state ?? null,
          output: state?.output ?? null,
          checked_at: state ? state.checkedAt.toISOString() : null,
          since: state ? state.since.toISOString() : null,
        };
      });
    },
  };
}

export type MonitoringService = ReturnType<typeof createMonitoringService>;
