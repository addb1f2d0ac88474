import type { DeploymentJob } from '@outpost/contract/deployments';
import { normaliseSchedule, policyMessages as messages } from '@outpost/contract/policies';
import type {
  Policy,
  PolicyCreateInput,
  PolicyDetail,
  PolicySchedule,
  PolicyUpdateInput,
} from '@outpost/contract/policies';
import { nextOccurrence } from '@outpost/contract/policy-schedule';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { badRequest, notFound } from '../../lib/errors';
import type { DeploymentsService } from '../deployments/deployments.service';
import { assertMayManage, checkedPackage, resolveTarget } from './policy-access';
import type { ResolvedTarget } from './policy-access';
import {
  deletePolicy,
  findPolicy,
  insertPolicy,
  listPolicies,
  lockPolicy,
  targetZones,
  updatePolicy,
} from './policies.queries';
import type { PolicyListRow, PolicyRow } from './policies.queries';
import { DEFAULT_ZONE, zoneOf } from './policy-runner';

// Automation policies (docs/product/device-sets.md#automation-policies): list, detail with the
// next run per time zone and the jobs created, create, update, enable or disable, delete. Every
// change is audited in its transaction; who may change what is in policy-access.ts.

export type PoliciesServiceDeps = {
  db: Db;
  deployments: Pick<DeploymentsService, 'jobsOfPolicy'>;
  now?: () => number;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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

/** The next occurrence in each zone the target's devices are in (UTC when it has none yet). */
async function nextRuns(db: Db, row: PolicyRow, now: number) {
  if (!row.enabled || row.trigger !== 'schedule' || !row.schedule) {
    return [];
  }
  const schedule = row.schedule;
  const zones = [...new Set((await targetZones(db, row)).map(zoneOf))];
  return (zones.length > 0 ? zones : [DEFAULT_ZONE]).sort().flatMap((zone) => {
    const at = nextOccurrence(schedule, zone, now);
    return at === null ? [] : [{ time_zone: zone, next_run_at: new Date(at).toISOString() }];
  });
}

function toPolicy(row: PolicyListRow, next: { next_run_at: string }[]): Policy {
  const first = next.map((n) => n.next_run_at).sort()[0] ?? null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    target: { type: row.targetType, site_id: row.siteId, group_id: row.groupId, name: targetName(row) },
    package_id: row.packageId,
    package_name: row.packageName,
    trigger: row.trigger,
    schedule: row.schedule,
    enabled: row.enabled,
    active_since: iso(row.activeSince),
    last_run_at: iso(row.lastRunAt),
    next_run_at: first,
    created_by_name: row.createdByName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The schedule a trigger keeps: required for a scheduled policy, none for a join policy. */
function scheduleFor(trigger: PolicyRow['trigger'], schedule: PolicySchedule | null | undefined) {
  if (trigger === 'join') {
    return null;
  }
  if (!schedule) {
    throw badRequest(messages.scheduleRequired, 'SCHEDULE_REQUIRED');
  }
  return normaliseSchedule(schedule);
}

const auditValues = (p: PolicyRow) => ({
  name: p.name,
  target_type: p.targetType,
  site_id: p.siteId,
  group_id: p.groupId,
  package_id: p.packageId,
  trigger: p.trigger,
  schedule: p.schedule,
  enabled: p.enabled,
});

/** A schedule's keys in one order (jsonb gives them back in its own). */
const SCHEDULE_KEYS = ['day_of_month', 'frequency', 'time', 'weekdays'];

/** `update` of the policies service: the merged policy checked like a new one, audited with both. */
async function updateOne(
  db: Db,
  ctx: RequestContext,
  id: number,
  body: PolicyUpdateInput,
  now: () => number,
) {
  await db.transaction(async (tx) => {
    const before = await lockPolicy(tx, ctx, id);
    if (!before) {
      throw notFound(messages.notFound, 'POLICY_NOT_FOUND');
    }
    assertMayManage(ctx, before);
    const target: ResolvedTarget =
      body.target_type === undefined
        ? before
        : await resolveTarget(tx, ctx, {
            target_type: body.target_type,
            site_id: body.site_id,
            group_id: body.group_id,
          });
    assertMayManage(ctx, target);
    const packageId = body.package_id ?? before.packageId;
    if (packageId === null) {
      throw notFound(messages.packageNotFound, 'PACKAGE_NOT_FOUND');
    }
    await checkedPackage(tx, ctx, packageId, target);
    const trigger = body.trigger ?? before.trigger;
    const schedule = scheduleFor(trigger, body.schedule === undefined ? before.schedule : body.schedule);
    const enabled = body.enabled ?? before.enabled;
    // a new target, trigger or schedule counts from now, as re-enabling does (no backlog)
    const when = (t: ResolvedTarget, tr: string, sc: PolicySchedule | null) =>
      JSON.stringify([t.targetType, t.siteId, t.groupId, tr, sc], SCHEDULE_KEYS);
    const changedWhen = when(target, trigger, schedule) !== when(before, before.trigger, before.schedule);
    const restart = enabled && (!before.enabled || changedWhen);
    const after = await updatePolicy(tx, id, {
      name: body.name ?? before.name,
      description: body.description === undefined ? before.description : body.description?.trim() || null,
      targetType: target.targetType,
      siteId: target.siteId,
      groupId: target.groupId,
      packageId,
      trigger,
      schedule,
      enabled,
      activeSince: restart ? new Date(now()) : before.activeSince,
    });
    await writeAudit(tx, ctx, {
      action: 'Update Policy',
      resourceType: 'policy',
      resourceId: id,
      details: `Updated ${after.name}`,
      oldValues: auditValues(before),
      newValues: auditValues(after),
      siteIds: [before.siteId, after.siteId],
    });
  });
}

export function createPoliciesService({ db, deployments, now = Date.now }: PoliciesServiceDeps) {
  async function load(ctx: RequestContext, id: number): Promise<PolicyListRow> {
    const row = await findPolicy(db, ctx, id);
    if (!row) {
      throw notFound(messages.notFound, 'POLICY_NOT_FOUND');
    }
    return row;
  }

  async function lockForChange(tx: Executor, ctx: RequestContext, id: number): Promise<PolicyRow> {
    const row = await lockPolicy(tx, ctx, id);
    if (!row) {
      throw notFound(messages.notFound, 'POLICY_NOT_FOUND');
    }
    assertMayManage(ctx, row);
    return row;
  }

  async function detail(ctx: RequestContext, id: number): Promise<PolicyDetail> {
    const row = await load(ctx, id);
    const next = await nextRuns(db, row, now());
    return { ...toPolicy(row, next), next_runs: next, jobs: await deployments.jobsOfPolicy(ctx, id, 50) };
  }

  return {
    async list(ctx: RequestContext): Promise<Policy[]> {
      const rows = await listPolicies(db, ctx);
      return Promise.all(rows.map(async (r) => toPolicy(r, await nextRuns(db, r, now()))));
    },

    get: detail,

    async jobs(ctx: RequestContext, id: number): Promise<DeploymentJob[]> {
      await load(ctx, id);
      return deployments.jobsOfPolicy(ctx, id, 200);
    },

    async create(ctx: RequestContext, body: PolicyCreateInput): Promise<PolicyDetail> {
      const id = await db.transaction(async (tx) => {
        const target = await resolveTarget(tx, ctx, body);
        assertMayManage(ctx, target);
        const pkg = await checkedPackage(tx, ctx, body.package_id, target);
        const row = await insertPolicy(tx, {
          tenantId: ctx.tenantId,
          name: body.name,
          description: body.description?.trim() || null,
          ...target,
          packageId: pkg.id,
          trigger: body.trigger,
          schedule: scheduleFor(body.trigger, body.schedule),
          enabled: body.enabled,
          activeSince: body.enabled ? new Date(now()) : null,
          createdBy: ctx.userId,
          createdByName: ctx.name ?? ctx.email,
        });
        await writeAudit(tx, ctx, {
          action: 'Create Policy',
          resourceType: 'policy',
          resourceId: row.id,
          details: `${row.name}: ${pkg.name}`,
          newValues: auditValues(row),
          siteIds: [row.siteId],
        });
        return row.id;
      });
      return detail(ctx, id);
    },

    async update(ctx: RequestContext, id: number, body: PolicyUpdateInput): Promise<PolicyDetail> {
      await updateOne(db, ctx, id, body, now);
      return detail(ctx, id);
    },

    async setEnabled(ctx: RequestContext, id: number, enabled: boolean): Promise<PolicyDetail> {
      await db.transaction(async (tx) => {
        const before = await lockForChange(tx, ctx, id);
        // enabling an enabled policy changes nothing (its joins and occurrences keep counting)
        if (before.enabled !== enabled) {
          await updatePolicy(tx, id, { enabled, ...(enabled && { activeSince: new Date(now()) }) });
        }
        await writeAudit(tx, ctx, {
          action: enabled ? 'Enable Policy' : 'Disable Policy',
          resourceType: 'policy',
          resourceId: id,
          details: `${enabled ? 'Enabled' : 'Disabled'} ${before.name}`,
          oldValues: { enabled: before.enabled },
          newValues: { enabled },
          siteIds: [before.siteId],
        });
      });
      return detail(ctx, id);
    },

    async remove(ctx: RequestContext, id: number): Promise<{ id: number }> {
      await db.transaction(async (tx) => {
        const before = await lockForChange(tx, ctx, id);
        await deletePolicy(tx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Policy',
          resourceType: 'policy',
          resourceId: id,
          details: `Deleted ${before.name}`,
          oldValues: auditValues(before),
          siteIds: [before.siteId],
        });
      });
      return { id };
    },
  };
}

export type PoliciesService = ReturnType<typeof createPoliciesService>;
