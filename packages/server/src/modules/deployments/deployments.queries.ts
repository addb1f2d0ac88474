import { and, asc, count, desc, eq, exists, ilike, inArray, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DeploymentJob, DeviceDeployment } from '@outpost/contract/deployments';
import type { JobStatus } from '@outpost/contract/live';
import {
  deploymentJobFiles,
  deploymentJobs,
  deploymentStepLogs,
  deviceDeployments,
} from '../../db/schema/index';
import { arrayParam, firstOrThrow, statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { emitJobEvent } from './job-events';
import {
  inScope,
  inScopePlaceholders,
  inTenant,
  inTenantPlaceholders,
  isSiteLimited,
  scopeValues,
} from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Deployments (docs/product/deployments.md#running-on-devices). A job belongs to the tenant; a site-limited caller sees a job
// when one of its devices is in their sites, and of its devices only those (docs/product/administration.md#site-scope).
// The engine's own statements live beside its parts (engine/*.queries.ts).

export type JobRow = typeof deploymentJobs.$inferSelect;
export type DeviceDeploymentRow = typeof deviceDeployments.$inferSelect;
export type StepLogRow = typeof deploymentStepLogs.$inferSelect;
export type NewJob = typeof deploymentJobs.$inferInsert;
export type NewDeviceDeployment = typeof deviceDeployments.$inferInsert;
export type NewStepLog = typeof deploymentStepLogs.$inferInsert;
/** A step log as written by a batch of progress, without its output. */
export type WrittenStepLog = Omit<
  StepLogRow,
  'stdoutLog' | 'stderrLog' | 'stdoutCutBytes' | 'stderrCutBytes' | 'output' | 'note'
>;

export const ACTIVE: JobStatus[] = ['pending', 'running'];

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The job is the caller's: their tenant, and for a site-limited caller one device in their sites
 * (`mine`: the condition on the job's device rows, null for a caller who sees every site).
 */
function jobVisibleWhere(db: Reader, tenant: SQL, mine: SQL | null): SQL {
  if (!mine) {
    return tenant;
  }
  const rows = db
    .select({ one: sql`1` })
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, deploymentJobs.id), mine));
  return and(tenant, exists(rows)) ?? tenant;
}

const jobVisible = (db: Reader, scope: Scope): SQL =>
  jobVisibleWhere(
    db,
    inTenant(deploymentJobs, scope),
    isSiteLimited(scope) ? inScope(deviceDeployments, scope) : null,
  );

/** jobVisible for a statement built once (lib/db statementCache): the scope's values as placeholders. */
const jobVisiblePlaceholders = (db: Reader, siteLimited: boolean): SQL =>
  jobVisibleWhere(
    db,
    inTenantPlaceholders(deploymentJobs),
    siteLimited ? inScopePlaceholders(deviceDeployments, true) : null,
  );

// ---------- writes at creation ----------

/** A new job; its package's copy time may be a subquery (packageLookup.updatedAtOf). */
export async function insertJob(
  tx: Executor,
  values: Omit<NewJob, 'packageUpdatedAt'> & { packageUpdatedAt?: SQL<Date> | Date | null },
): Promise<JobRow> {
  const job = firstOrThrow(await tx.insert(deploymentJobs).values(values).returning(), 'insert job');
  // every way a job is made (a deployment, a script run, a policy) is deployment.created
  await emitJobEvent(tx, job, 'deployment.created');
  return job;
}

export async function insertDeviceDeployments(tx: Executor, rows: NewDeviceDeployment[]): Promise<void> {
  if (rows.length > 0) {
    await tx.insert(deviceDeployments).values(rows);
  }
}

/** A device a new job targets, as its device row records it. */
export type JobTarget = Required<
  Pick<NewDeviceDeployment, 'siteId' | 'deviceGuid' | 'hostname' | 'ipAddress'>
> & {
  id: number;
};

/** A new job's device rows (pending), in one statement: a parameter per column, not per value. */
export async function insertPendingDeviceDeployments(
  tx: Executor,
  job: { jobId: number; tenantId: number },
  targets: readonly JobTarget[],
): Promise<void> {
  if (targets.length === 0) {
    return;
  }
  const rows = targets.map((t) => ({ ...job, ...t, deviceId: t.id }));
  const column = <T>(pick: (r: (typeof rows)[number]) => T, type: string) => arrayParam(rows.map(pick), type);
  await tx.execute(sql`
    insert into ${deviceDeployments} (job_id, tenant_id, device_id, site_id, device_guid, hostname, ip_address)
    select * from unnest(
      ${column((r) => r.jobId, 'int')},
      ${column((r) => r.tenantId, 'int')},
      ${column((r) => r.deviceId, 'int')},
      ${column((r) => r.siteId, 'int')},
      ${column((r) => r.deviceGuid, 'uuid')},
      ${column((r) => r.hostname, 'text')},
      ${column((r) => r.ipAddress, 'text')}
    )`);
}

export async function insertJobFiles(tx: Executor, jobId: number, fileIds: number[]): Promise<void> {
  const ids = [...new Set(fileIds)];
  if (ids.length > 0) {
    await tx
      .insert(deploymentJobFiles)
      .values(ids.map((fileId) => ({ jobId, fileId })))
      .onConflictDoNothing();
  }
}

// ---------- reads for the API ----------

export type JobFilters = { page: number; limit: number; status?: JobStatus; search?: string };

/** The job list's condition for a shape key: site-limited ('s'), status ('t'), search ('q'). */
function jobListWhere(db: Reader, key: string): SQL {
  const term = sql.placeholder('term');
  return and(
    jobVisiblePlaceholders(db, key.includes('s')),
    key.includes('t') ? eq(deploymentJobs.status, sql.placeholder('status')) : undefined,
    key.includes('q')
      ? or(ilike(deploymentJobs.name, term), ilike(deploymentJobs.packageName, term))
      : undefined,
  )!;
}
const jobCountStatement = statementCache((db, key) =>
  db.select({ n: count() }).from(deploymentJobs).where(jobListWhere(db, key)).prepare(UNNAMED_STATEMENT),
);
const jobPageStatement = statementCache((db, key) =>
  db
    .select()
    .from(deploymentJobs)
    .where(jobListWhere(db, key))
    .orderBy(desc(deploymentJobs.createdAt), desc(deploymentJobs.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(UNNAMED_STATEMENT),
);

export async function listJobs(
  db: Reader,
  scope: Scope,
  f: JobFilters,
): Promise<{ rows: JobRow[]; total: number }> {
  const key = `${isSiteLimited(scope) ? 's' : ''}${f.status ? 't' : ''}${f.search ? 'q' : ''}`;
  const values = {
    ...scopeValues(scope),
    status: f.status ?? null,
    term: f.search ? `%${escapeLike(f.search)}%` : null,
  };
  const [totalRow] = await jobCountStatement(db, key).execute(values);
  const rows = await jobPageStatement(db, key).execute({
    ...values,
    limit: f.limit,
    offset: (f.page - 1) * f.limit,
  });
  return { rows, total: totalRow?.n ?? 0 };
}

export async function findJob(
  db: Executor,
  scope: Scope,
  id: number,
  opts: { lock?: boolean } = {},
): Promise<JobRow | null> {
  const query = db
    .select()
    .from(deploymentJobs)
    .where(and(jobVisible(db, scope), eq(deploymentJobs.id, id)))
    .limit(1);
  const [row] = opts.lock ? await query.for('update', { of: deploymentJobs }) : await query;
  return row ?? null;
}

/** The jobs an automation policy created that the caller may see, newest first. */
export async function listPolicyJobs(
  db: Executor,
  scope: Scope,
  policyId: number,
  limit: number,
): Promise<JobRow[]> {
  return db
    .select()
    .from(deploymentJobs)
    .where(and(jobVisible(db, scope), eq(deploymentJobs.policyId, policyId)))
    .orderBy(desc(deploymentJobs.createdAt), desc(deploymentJobs.id))
    .limit(limit);
}

/** The job's device rows the caller may see (all of them for everyone but site-limited callers). */
export async function listDeviceDeployments(
  db: Executor,
  scope: Scope,
  jobId: number,
): Promise<DeviceDeploymentRow[]> {
  return db
    .select()
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), inScope(deviceDeployments, scope)))
    .orderBy(asc(deviceDeployments.hostname), asc(deviceDeployments.id));
}

export async function countDeviceDeploymentsOutside(
  db: Executor,
  scope: Scope,
  jobId: number,
): Promise<number> {
  if (!isSiteLimited(scope)) {
    return 0;
  }
  const [row] = await db
    .select({ n: count() })
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), sql`not (${inScope(deviceDeployments, scope)})`));
  return row?.n ?? 0;
}

export async function findDeviceDeployment(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<DeviceDeploymentRow | null> {
  const [row] = await db
    .select()
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.id, id), inScope(deviceDeployments, scope)))
    .limit(1);
  return row ?? null;
}

export async function countJobs(db: Executor, scope: TenantScope): Promise<number> {
  const [row] = await db.select({ n: count() }).from(deploymentJobs).where(inTenant(deploymentJobs, scope));
  return row?.n ?? 0;
}

const runningJobsStatement = statementCache((db, key) =>
  db
    .select({ n: count() })
    .from(deploymentJobs)
    .where(and(jobVisiblePlaceholders(db, key === 'sites'), eq(deploymentJobs.status, 'running')))
    .prepare(UNNAMED_STATEMENT),
);

export async function countRunningJobs(db: Reader, scope: Scope): Promise<number> {
  const statement = runningJobsStatement(db, isSiteLimited(scope) ? 'sites' : 'tenant');
  const [row] = await statement.execute(scopeValues(scope));
  return row?.n ?? 0;
}

export async function countActiveJobsForPackage(
  db: Executor,
  scope: TenantScope,
  packageId: number,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(deploymentJobs)
    .where(
      and(
        inTenant(deploymentJobs, scope),
        eq(deploymentJobs.packageId, packageId),
        inArray(deploymentJobs.status, ACTIVE),
      ),
    );
  return row?.n ?? 0;
}

/** Whether a step of one of this device's unfinished deployments uses the file. */
export async function deviceMayDownload(db: Executor, deviceId: number, fileId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(deploymentJobFiles)
    .innerJoin(deviceDeployments, eq(deviceDeployments.jobId, deploymentJobFiles.jobId))
    .where(
      and(
        eq(deploymentJobFiles.fileId, fileId),
        eq(deviceDeployments.deviceId, deviceId),
        inArray(deviceDeployments.status, ACTIVE),
      ),
    )
    .limit(1);
  return row !== undefined;
}
export async function activeDeviceDeploymentsOf(tx: Executor, jobId: number): Promise<DeviceDeploymentRow[]> {
  return tx
    .select()
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), inArray(deviceDeployments.status, ACTIVE)))
    .for('update');
}
export async function updateDeviceDeployment(
  tx: Executor,
  id: number,
  set: Partial<NewDeviceDeployment>,
): Promise<DeviceDeploymentRow> {
  return firstOrThrow(
    await tx.update(deviceDeployments).set(set).where(eq(deviceDeployments.id, id)).returning(),
    'update device deployment',
  );
}
export async function updateJob(tx: Executor, jobId: number, set: Partial<NewJob>): Promise<JobRow> {
  return firstOrThrow(
    await tx
      .update(deploymentJobs)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(deploymentJobs.id, jobId))
      .returning(),
    'update job',
  );
}
// ---------- step logs ----------

export async function insertStepLog(tx: Executor, values: NewStepLog) {
  return firstOrThrow(await tx.insert(deploymentStepLogs).values(values).returning(), 'insert step log');
}

// ---------- wire shapes ----------

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toJob(row: JobRow): DeploymentJob {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    package_id: row.packageId,
    package_name: row.packageName,
    created_by_name: row.createdByName,
    created_at: row.createdAt.toISOString(),
    scheduled_at: iso(row.scheduledAt),
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    total_devices: row.totalDevices,
    completed_devices: row.completedDevices,
    failed_devices: row.failedDevices,
    group_id: row.groupId,
    group_name: row.groupName,
    policy_id: row.policyId,
    rollout_state: row.rolloutState,
    only_in_windows: row.onlyInWindows,
    kind: row.kind,
  };
}

export function toDeviceDeployment(row: DeviceDeploymentRow, stepName: string | null): DeviceDeployment {
  return {
    id: row.id,
    agent_id: row.deviceId,
    device_guid: row.deviceGuid,
    hostname: row.hostname,
    ip_address: row.ipAddress,
    status: row.status,
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    error_message: row.errorMessage,
    reboot_required: row.rebootRequired,
    current_step_order: row.currentStepOrder,
    current_step_name: stepName,
    // docs/product/rollouts.md#device-states
    wave_index: row.waveIndex,
    // a finished row is held no more (docs/product/rollouts.md#device-states)
    ...(ACTIVE.includes(row.status)
      ? { hold: row.hold, hold_until: iso(row.holdUntil), hold_note: row.holdNote }
      : { hold: null, hold_until: null, hold_note: null }),
  };
}
