import { and, asc, count, desc, eq, exists, ilike, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { DeploymentJob, DeviceDeployment, StepLog } from '@outpost/contract/deployments';
import type { JobStatus } from '@outpost/contract/live';
import {
  deploymentJobFiles,
  deploymentJobs,
  deploymentStepLogs,
  deviceCommands,
  deviceDeployments,
} from '../../db/schema/index';
import { firstOrThrow, statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import {
  inScope,
  inScopePlaceholders,
  inTenant,
  inTenantPlaceholders,
  isSiteLimited,
  scopeValues,
} from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Deployments (ARCHITECTURE §5). A job belongs to the tenant; a site-limited caller sees a job
// when one of its devices is in their sites, and of its devices only those (ARCHITECTURE §3).

export type JobRow = typeof deploymentJobs.$inferSelect;
export type DeviceDeploymentRow = typeof deviceDeployments.$inferSelect;
export type StepLogRow = typeof deploymentStepLogs.$inferSelect;
export type NewJob = typeof deploymentJobs.$inferInsert;
export type NewDeviceDeployment = typeof deviceDeployments.$inferInsert;
export type NewStepLog = typeof deploymentStepLogs.$inferInsert;
/** A step log as written by a batch of progress, without its output. */
export type WrittenStepLog = Omit<StepLogRow, 'stdoutLog' | 'stderrLog' | 'output'>;

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

export async function insertJob(tx: Executor, values: NewJob): Promise<JobRow> {
  return firstOrThrow(await tx.insert(deploymentJobs).values(values).returning(), 'insert job');
}

export async function insertDeviceDeployments(tx: Executor, rows: NewDeviceDeployment[]): Promise<void> {
  if (rows.length > 0) {
    await tx.insert(deviceDeployments).values(rows);
  }
}

export async function insertJobFiles(tx: Executor, jobId: number, fileIds: number[]): Promise<void> {
  const ids = [...new Set(fileIds)];
  if (ids.length > 0) {
    await tx.insert(deploymentJobFiles).values(ids.map((fileId) => ({ jobId, fileId })));
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

export async function listStepLogs(db: Executor, deviceDeploymentId: number): Promise<StepLogRow[]> {
  return db
    .select()
    .from(deploymentStepLogs)
    .where(eq(deploymentStepLogs.deviceDeploymentId, deviceDeploymentId))
    .orderBy(asc(deploymentStepLogs.stepOrder), asc(deploymentStepLogs.attempt));
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

// ---------- the engine ----------

/** Due jobs nobody has dispatched, locked for this transaction; other instances skip them. */
export async function claimDueJobs(tx: Executor, limit: number): Promise<JobRow[]> {
  return tx
    .select()
    .from(deploymentJobs)
    .where(
      and(
        eq(deploymentJobs.status, 'pending'),
        isNull(deploymentJobs.dispatchedAt),
        or(isNull(deploymentJobs.scheduledAt), lte(deploymentJobs.scheduledAt, sql`now()`)),
      ),
    )
    .orderBy(asc(sql`coalesce(${deploymentJobs.scheduledAt}, ${deploymentJobs.createdAt})`))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function pendingDeviceDeploymentsOf(
  tx: Executor,
  jobId: number,
): Promise<DeviceDeploymentRow[]> {
  return tx
    .select()
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), eq(deviceDeployments.status, 'pending')));
}

export async function activeDeviceDeploymentsOf(tx: Executor, jobId: number): Promise<DeviceDeploymentRow[]> {
  return tx
    .select()
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), inArray(deviceDeployments.status, ACTIVE)))
    .for('update');
}

export async function markJobDispatched(tx: Executor, jobId: number): Promise<void> {
  await tx
    .update(deploymentJobs)
    .set({ dispatchedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(deploymentJobs.id, jobId));
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

/**
 * Unfinished device rows whose command has ended at least `ageMs` ago: its result was recorded
 * but not applied here (a crash between the two), or it expired when the device reconnected.
 */
export async function staleCommandRows(
  db: Executor,
  ageMs: number,
  limit: number,
): Promise<{ commandId: string; deviceId: number }[]> {
  const rows = await db
    .select({ commandId: deviceDeployments.commandId, deviceId: deviceDeployments.deviceId })
    .from(deviceDeployments)
    .innerJoin(deviceCommands, eq(deviceCommands.id, deviceDeployments.commandId))
    .where(
      and(
        inArray(deviceDeployments.status, ACTIVE),
        inArray(deviceCommands.status, ['completed', 'failed']),
        lte(deviceCommands.completedAt, sql`now() - make_interval(secs => ${ageMs / 1000})`),
      ),
    )
    .limit(limit);
  return rows.flatMap((r) =>
    r.commandId && r.deviceId !== null ? [{ commandId: r.commandId, deviceId: r.deviceId }] : [],
  );
}

/** The job row as it is, without a lock (its steps never change once it exists). */
export async function readJobById(tx: Executor, jobId: number): Promise<JobRow> {
  return firstOrThrow(
    await tx.select().from(deploymentJobs).where(eq(deploymentJobs.id, jobId)).limit(1),
    'read job',
  );
}

export async function lockJobById(tx: Executor, jobId: number): Promise<JobRow> {
  return firstOrThrow(
    await tx.select().from(deploymentJobs).where(eq(deploymentJobs.id, jobId)).limit(1).for('update'),
    'lock job',
  );
}

export async function deviceStatusCounts(tx: Executor, jobId: number): Promise<Record<JobStatus, number>> {
  const rows = await tx
    .select({ status: deviceDeployments.status, n: count() })
    .from(deviceDeployments)
    .where(eq(deviceDeployments.jobId, jobId))
    .groupBy(deviceDeployments.status);
  const out: Record<JobStatus, number> = { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };
  for (const r of rows) {
    out[r.status] = r.n;
  }
  return out;
}

/** A command as an agent names it: only its own device's commands count. */
export type CommandOfDevice = { deviceId: number; commandId: string };

// The batch statements below take one array parameter per column (unnest), not one parameter per
// value: a batch of 500 messages is a handful of parameters, cheap to build and to parse.
const param = <T>(values: T[], type: string) => sql`${sql.param(values)}::${sql.raw(type)}[]`;

/** `(command_id, device_id) in (…)` for these pairs, by the command index. */
function isCommandOfDevice(commandId: SQL | AnyColumn, deviceId: SQL | AnyColumn, pairs: CommandOfDevice[]) {
  const commands = param(
    pairs.map((p) => p.commandId),
    'uuid',
  );
  const devices = param(
    pairs.map((p) => p.deviceId),
    'int',
  );
  return sql`${commandId} = any(${commands}) and (${commandId}, ${deviceId}) in (select * from unnest(${commands}, ${devices}))`;
}

/**
 * Marks running the pending jobs of these commands' device deployments (their devices' first
 * progress). Run first in the transaction, before the device rows are locked (lock order: jobs in
 * id order, then device rows); once a job runs, its row is filtered out unlocked, so the thousands
 * of later messages of its devices never wait on it.
 */
export async function startJobsOfCommands(tx: Executor, pairs: CommandOfDevice[]): Promise<void> {
  await tx.execute(sql`
    update ${deploymentJobs} set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
    where status = 'pending' and id in (
      select j.id from ${deploymentJobs} j
      where j.status = 'pending' and j.id in (
        select d.job_id from ${deviceDeployments} d
        where ${isCommandOfDevice(sql`d.command_id`, sql`d.device_id`, pairs)}
      )
      order by j.id
      for update
    )`);
}

/** The device deployments these commands run, locked in id order; commands of other devices are left out. */
export async function lockDeviceDeploymentsByCommands(
  tx: Executor,
  pairs: CommandOfDevice[],
): Promise<DeviceDeploymentRow[]> {
  return tx
    .select()
    .from(deviceDeployments)
    .where(isCommandOfDevice(deviceDeployments.commandId, deviceDeployments.deviceId, pairs))
    .orderBy(asc(deviceDeployments.id))
    .for('update');
}

/** Gives dispatched device deployments their run_deployment commands and the expiry, in one statement. */
export async function setDeviceDeploymentCommands(
  tx: Executor,
  rows: { id: number; commandId: string }[],
  expiresAt: Date,
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await tx.execute(sql`
    update ${deviceDeployments} d set command_id = v.command_id, expires_at = ${expiresAt.toISOString()}::timestamptz
    from unnest(${param(
      rows.map((r) => r.id),
      'int',
    )}, ${param(
      rows.map((r) => r.commandId),
      'uuid',
    )}) as v(id, command_id)
    where d.id = v.id`);
}

/** What one progress message changes in its device row. */
export type DeviceProgress = {
  id: number;
  progressSeq: number;
  /** null: the row's current step stays (a message for a row that has ended) */
  currentStepOrder: number | null;
  /** set when the row starts running with this message */
  startedAt: Date | null;
  rebootRequired: boolean;
};

/** Applies progress to device rows in one statement (each row at most once). */
export async function applyDeviceProgress(tx: Executor, rows: DeviceProgress[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const column = <T>(pick: (r: DeviceProgress) => T, type: string) => param(rows.map(pick), type);
  await tx.execute(sql`
    update ${deviceDeployments} d set
      progress_seq = v.seq,
      current_step_order = coalesce(v.step_order, d.current_step_order),
      status = case when v.started_at is null then d.status else 'running' end,
      started_at = case when v.started_at is null then d.started_at else v.started_at end,
      reboot_required = d.reboot_required or v.reboot
    from unnest(
      ${column((r) => r.id, 'int')},
      ${column((r) => r.progressSeq, 'int')},
      ${column((r) => r.currentStepOrder, 'int')},
      ${column((r) => r.startedAt?.toISOString() ?? null, 'timestamptz')},
      ${column((r) => r.rebootRequired, 'boolean')}
    ) as v(id, seq, step_order, started_at, reboot)
    where d.id = v.id`);
}

/**
 * Active jobs whose counters disagree with their device rows: changed rows whose settle never ran
 * (the instance that applied them stopped first). A pending job with a started row counts too.
 */
export async function unsettledJobs(db: Executor, limit: number): Promise<number[]> {
  const result = await db.execute(sql`
    select j.id from ${deploymentJobs} j
    cross join lateral (
      select count(*) filter (where d.status = 'completed')::int as completed,
             count(*) filter (where d.status = 'failed')::int as failed,
             count(*) filter (where d.status <> 'pending')::int as started
      from ${deviceDeployments} d where d.job_id = j.id
    ) c
    where j.status in ('pending', 'running')
      and (c.completed <> j.completed_devices or c.failed <> j.failed_devices
           or (j.status = 'pending' and c.started > 0))
    limit ${limit}`);
  // PGlite and node-postgres both answer with { rows }
  const { rows } = result as { rows: { id: number }[] };
  return rows.map((r) => Number(r.id));
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

/**
 * Unfinished device deployments past their expiry (the device never took the work, or went away
 * while running and stayed away), or whose device was removed; locked, skipping rows another
 * instance is handling.
 */
export async function claimOverdueDeviceDeployments(tx: Executor, limit: number) {
  return tx
    .select()
    .from(deviceDeployments)
    .where(
      and(
        inArray(deviceDeployments.status, ACTIVE),
        or(
          isNull(deviceDeployments.deviceId),
          and(
            lte(deviceDeployments.expiresAt, sql`now()`),
            or(
              eq(deviceDeployments.status, 'pending'),
              sql`not exists (select 1 from devices d where d.id = ${deviceDeployments.deviceId} and d.status <> 'offline')`,
            ),
          ),
        ),
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
}

// ---------- step logs ----------

export async function insertStepLog(tx: Executor, values: NewStepLog) {
  return firstOrThrow(await tx.insert(deploymentStepLogs).values(values).returning(), 'insert step log');
}

/**
 * Writes progress into attempts' logs, each attempt at most once per call. A new attempt is
 * inserted as given; an existing one gets the output appended (each stream capped at `cap`
 * characters) and, while it is still running, the final fields of a final message (status, exit
 * code, end, error, notes, and its duration from its own start).
 */
export async function upsertStepLogs(
  tx: Executor,
  rows: NewStepLog[],
  cap: number,
): Promise<WrittenStepLog[]> {
  if (rows.length === 0) {
    return [];
  }
  const column = <T>(pick: (r: NewStepLog) => T, type: string) => param(rows.map(pick), type);
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  const isFinal = sql`l.status = 'running' and excluded.status <> 'running'`;
  const whenFinal = (name: string) =>
    sql`case when ${isFinal} then excluded.${sql.identifier(name)} else l.${sql.identifier(name)} end`;
  const epochMs = (name: string) =>
    sql`round(extract(epoch from ${sql.identifier(name)}) * 1000)::float8 as ${sql.identifier(name)}`;
  // Raw SQL: drizzle's insert … select would name the identity column too. The logs' text is
  // not returned (the caller has the message's output).
  const result = await tx.execute(sql`
    insert into ${deploymentStepLogs} as l (device_deployment_id, step_order, step_name, attempt, status,
      exit_code, started_at, completed_at, duration_ms, stdout_log, stderr_log, output, error_message)
    select * from unnest(
      ${column((r) => r.deviceDeploymentId, 'int')},
      ${column((r) => r.stepOrder, 'int')},
      ${column((r) => r.stepName, 'text')},
      ${column((r) => r.attempt ?? 1, 'int')},
      ${column((r) => r.status ?? 'running', 'text')},
      ${column((r) => r.exitCode ?? null, 'bigint')},
      ${column((r) => iso(r.startedAt), 'timestamptz')},
      ${column((r) => iso(r.completedAt), 'timestamptz')},
      ${column((r) => r.durationMs ?? null, 'int')},
      ${column((r) => r.stdoutLog ?? '', 'text')},
      ${column((r) => r.stderrLog ?? '', 'text')},
      ${column((r) => r.output ?? null, 'text')},
      ${column((r) => r.errorMessage ?? null, 'text')}
    )
    on conflict (device_deployment_id, step_order, attempt) do update set
      stdout_log = left(l.stdout_log || excluded.stdout_log, ${cap}),
      stderr_log = left(l.stderr_log || excluded.stderr_log, ${cap}),
      status = ${whenFinal('status')},
      exit_code = ${whenFinal('exit_code')},
      completed_at = ${whenFinal('completed_at')},
      error_message = ${whenFinal('error_message')},
      output = ${whenFinal('output')},
      duration_ms = case when ${isFinal}
        then greatest(0, extract(epoch from (excluded.completed_at - coalesce(l.started_at, excluded.completed_at))) * 1000)::int
        else l.duration_ms end
    returning id, device_deployment_id, step_order, step_name, attempt, status, exit_code::float8 as exit_code,
      ${epochMs('started_at')}, ${epochMs('completed_at')}, duration_ms, error_message`);
  // PGlite and node-postgres both answer with { rows }
  const written = (result as { rows: Record<string, unknown>[] }).rows;
  const numberOrNull = (v: unknown) => (v === null ? null : Number(v));
  const dateOrNull = (v: unknown) => (v === null ? null : new Date(Number(v)));
  return written.map((r) => ({
    id: Number(r.id),
    deviceDeploymentId: Number(r.device_deployment_id),
    stepOrder: Number(r.step_order),
    stepName: String(r.step_name),
    attempt: Number(r.attempt),
    status: r.status as JobStatus,
    exitCode: numberOrNull(r.exit_code),
    startedAt: dateOrNull(r.started_at),
    completedAt: dateOrNull(r.completed_at),
    durationMs: numberOrNull(r.duration_ms),
    errorMessage: r.error_message as string | null,
  }));
}

export async function deleteStepLogs(tx: Executor, deviceDeploymentIds: number[]): Promise<void> {
  if (deviceDeploymentIds.length > 0) {
    await tx
      .delete(deploymentStepLogs)
      .where(inArray(deploymentStepLogs.deviceDeploymentId, deviceDeploymentIds));
  }
}

/** Attempts still shown running when their device deployment ends are closed with it. */
export async function closeRunningStepLogs(
  tx: Executor,
  deviceDeploymentId: number,
  status: JobStatus,
  errorMessage: string | null,
) {
  await closeRunningStepLogsOf(tx, [{ id: deviceDeploymentId, status, errorMessage }]);
}

async function closeRunningStepLogsOf(
  tx: Executor,
  rows: { id: number; status: JobStatus; errorMessage: string | null }[],
) {
  await tx.execute(sql`
    update ${deploymentStepLogs} l set
      status = v.status,
      completed_at = now(),
      error_message = coalesce(l.error_message, v.error_message),
      duration_ms = (extract(epoch from (now() - l.started_at)) * 1000)::int
    from unnest(
      ${param(
        rows.map((r) => r.id),
        'int',
      )},
      ${param(
        rows.map((r) => r.status),
        'text',
      )},
      ${param(
        rows.map((r) => r.errorMessage),
        'text',
      )}
    ) as v(id, status, error_message)
    where l.device_deployment_id = v.id and l.status = 'running'`);
}

/**
 * Ends unfinished device rows as given (status, error, end, reboot flag, start when they had
 * none), each once, and closes the attempts still shown running with them: cancelled when the
 * row completed, else with the row's status and error. The caller holds the rows' locks.
 */
export async function endDeviceDeployments(tx: Executor, rows: DeviceDeploymentRow[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const column = <T>(pick: (r: DeviceDeploymentRow) => T, type: string) => param(rows.map(pick), type);
  await tx.execute(sql`
    update ${deviceDeployments} d set
      status = v.status,
      error_message = v.error_message,
      completed_at = v.completed_at,
      reboot_required = v.reboot,
      started_at = coalesce(d.started_at, v.started_at)
    from unnest(
      ${column((r) => r.id, 'int')},
      ${column((r) => r.status, 'text')},
      ${column((r) => r.errorMessage, 'text')},
      ${column((r) => r.completedAt?.toISOString() ?? null, 'timestamptz')},
      ${column((r) => r.rebootRequired, 'boolean')},
      ${column((r) => r.startedAt?.toISOString() ?? null, 'timestamptz')}
    ) as v(id, status, error_message, completed_at, reboot, started_at)
    where d.id = v.id`);
  await closeRunningStepLogsOf(
    tx,
    rows.map((r) => ({
      id: r.id,
      status: r.status === 'completed' ? 'cancelled' : r.status,
      errorMessage: r.errorMessage,
    })),
  );
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
  };
}

export function toStepLog(row: StepLogRow): StepLog {
  return {
    id: row.id,
    step_order: row.stepOrder,
    step_name: row.stepName,
    attempt: row.attempt,
    status: row.status,
    duration_ms: row.durationMs,
    exit_code: row.exitCode,
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    stdout_log: row.stdoutLog,
    output: row.output,
    stderr_log: row.stderrLog,
    error_message: row.errorMessage,
  };
}
