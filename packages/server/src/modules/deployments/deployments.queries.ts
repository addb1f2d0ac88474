import { and, asc, count, desc, eq, exists, ilike, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { DeploymentJob, DeviceDeployment, StepLog } from '@outpost/contract/deployments';
import type { JobStatus } from '@outpost/contract/live';
import { INT4_MAX } from '@outpost/contract/input';
import {
  deploymentJobFiles,
  deploymentJobs,
  deploymentStepLogs,
  deviceCommands,
  deviceDeployments,
} from '../../db/schema/index';
import { arrayParam, firstOrThrow, rowsOf, statementCache, UNNAMED_STATEMENT } from '../../lib/db';
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

/** A new job's device rows (pending), in one statement: a parameter per column, not per value. */
export async function insertPendingDeviceDeployments(
  tx: Executor,
  rows: Required<
    Pick<
      NewDeviceDeployment,
      'jobId' | 'tenantId' | 'deviceId' | 'siteId' | 'deviceGuid' | 'hostname' | 'ipAddress'
    >
  >[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
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

/** A job's pending device rows, as the dispatch needs them (their id and device). */
export async function pendingDeviceDeploymentsOf(
  tx: Executor,
  jobId: number,
): Promise<Pick<DeviceDeploymentRow, 'id' | 'deviceId'>[]> {
  return tx
    .select({ id: deviceDeployments.id, deviceId: deviceDeployments.deviceId })
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

// The batch statements below take one array parameter per column (unnest, lib/db.ts arrayParam),
// not one parameter per value: a batch of 500 messages is a handful of parameters.

/** `(command_id, device_id) in (…)` for these pairs, by the command index. */
function isCommandOfDevice(commandId: SQL | AnyColumn, deviceId: SQL | AnyColumn, pairs: CommandOfDevice[]) {
  const commands = arrayParam(
    pairs.map((p) => p.commandId),
    'uuid',
  );
  const devices = arrayParam(
    pairs.map((p) => p.deviceId),
    'int',
  );
  return sql`${commandId} = any(${commands}) and (${commandId}, ${deviceId}) in (select * from unnest(${commands}, ${devices}))`;
}

/**
 * Marks these jobs running while still pending (their devices' first progress), in their own
 * statement: agent messages hold no device row lock when they get here (lock order: the job row,
 * then its device rows).
 */
export async function startJobs(db: Executor, jobIds: number[]): Promise<void> {
  if (jobIds.length === 0) {
    return;
  }
  await db.execute(sql`
    update ${deploymentJobs} set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
    where id = any(${arrayParam(jobIds, 'int')}) and status = 'pending'`);
}

/** What applying an agent's message needs of its device row. */
export type DeviceDeploymentState = Pick<
  DeviceDeploymentRow,
  | 'id'
  | 'jobId'
  | 'deviceId'
  | 'siteId'
  | 'commandId'
  | 'deviceGuid'
  | 'status'
  | 'progressSeq'
  | 'errorMessage'
>;

type StateRow = {
  id: number;
  job_id: number;
  device_id: number | null;
  site_id: number | null;
  command_id: string | null;
  device_guid: string | null;
  status: JobStatus;
  progress_seq: number;
  error_message: string | null;
};

const toState = (r: StateRow): DeviceDeploymentState => ({
  id: Number(r.id),
  jobId: Number(r.job_id),
  deviceId: r.device_id === null ? null : Number(r.device_id),
  siteId: r.site_id === null ? null : Number(r.site_id),
  commandId: r.command_id,
  deviceGuid: r.device_guid,
  status: r.status,
  progressSeq: Number(r.progress_seq),
  errorMessage: r.error_message,
});

/**
 * The device deployments these commands run (commands of other devices are left out); with
 * `lock`, locked in id order for the caller's transaction.
 */
export async function deviceDeploymentsOfCommands(
  db: Executor,
  pairs: CommandOfDevice[],
  opts: { lock: boolean },
): Promise<DeviceDeploymentState[]> {
  if (pairs.length === 0) {
    return [];
  }
  const result = await db.execute(sql`
    select id, job_id, device_id, site_id, command_id, device_guid, status, progress_seq, error_message
    from ${deviceDeployments} d
    where ${isCommandOfDevice(sql`d.command_id`, sql`d.device_id`, pairs)}
    ${opts.lock ? sql`order by id for update` : sql``}`);
  return rowsOf<StateRow>(result).map(toState);
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
    from unnest(${arrayParam(
      rows.map((r) => r.id),
      'int',
    )}, ${arrayParam(
      rows.map((r) => r.commandId),
      'uuid',
    )}) as v(id, command_id)
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
  return rowsOf<{ id: number }>(result).map((r) => Number(r.id));
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
 * Milliseconds from `start` to `end` as an attempt's duration: at least 0 and at most the int4
 * column's limit (the times are the agent's clock; one set years off must not fail its batch).
 */
const durationSince = (start: SQL, end: SQL) =>
  sql`least(${INT4_MAX}, greatest(0, extract(epoch from (${end} - ${start})) * 1000))::int`;

/** What a device's progress messages of one batch write: its device row, and the logs of their attempts. */
export type ProgressWrite = {
  /** the device row as it was read: the write applies only while the row is still so */
  id: number;
  expectedSeq: number;
  expectedStatus: JobStatus;
  /** the seq of the row's last message in the batch */
  progressSeq: number;
  /** null: the row's current step stays (messages for a row that has ended) */
  currentStepOrder: number | null;
  /** set when the row starts running with these messages */
  startedAt: Date | null;
  /** one log per attempt the messages reported, the messages of an attempt merged (none for a row that has ended) */
  logs: Omit<NewStepLog, 'deviceDeploymentId'>[];
};

/**
 * Applies a batch of progress in one statement, each device row at most once: the rows still as
 * read (progress seq and status; the update re-checks them under its row lock, so a row another
 * writer changed meanwhile is left alone) get their seq, step, start and reboot flag, and their
 * attempts' logs are written: a new attempt inserted as given; an existing one gets the output
 * appended (each stream capped at `cap` characters) and, while it is still running, the final
 * fields of a final message (status, exit code, end, error, notes, and its duration from its own
 * start). A step asks for a reboot when its attempt ends completed with one of `rebootCodes` (an
 * attempt already final keeps its own status and code). Answers the rows written (a row left
 * alone is not among them) and the logs as written, without their output text.
 */
export async function writeStepProgress(
  db: Executor,
  writes: ProgressWrite[],
  cap: number,
  rebootCodes: number[],
): Promise<{ rows: Set<number>; logs: WrittenStepLog[] }> {
  if (writes.length === 0) {
    return { rows: new Set(), logs: [] };
  }
  const column = <T>(pick: (w: ProgressWrite) => T, type: string) => arrayParam(writes.map(pick), type);
  const attempts = writes.flatMap((w) => w.logs.map((log) => ({ id: w.id, log })));
  const logColumn = <T>(pick: (l: ProgressWrite['logs'][number]) => T, type: string) =>
    arrayParam(
      attempts.map((a) => pick(a.log)),
      type,
    );
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  const codes = arrayParam(rebootCodes, 'bigint');
  const isRebootCode = (code: number | null | undefined) => code != null && rebootCodes.includes(code);
  const isFinal = sql`l.status = 'running' and excluded.status <> 'running'`;
  const whenFinal = (name: string) =>
    sql`case when ${isFinal} then excluded.${sql.identifier(name)} else l.${sql.identifier(name)} end`;
  const epochMs = (name: string) =>
    sql`round(extract(epoch from l.${sql.identifier(name)}) * 1000)::float8 as ${sql.identifier(name)}`;
  const result = await db.execute(sql`
    with r as (
      select * from unnest(
        ${column((w) => w.id, 'int')},
        ${column((w) => w.expectedSeq, 'int')},
        ${column((w) => w.expectedStatus, 'text')},
        ${column((w) => w.progressSeq, 'int')},
        ${column((w) => w.currentStepOrder, 'int')},
        ${column((w) => iso(w.startedAt), 'timestamptz')},
        ${column((w) => w.logs.some((l) => l.status === 'completed' && isRebootCode(l.exitCode)), 'boolean')}
      ) as r(id, expected_seq, expected_status, seq, step_order, row_started_at, may_reboot)
    ),
    v as (
      select * from unnest(
        ${arrayParam(
          attempts.map((a) => a.id),
          'int',
        )},
        ${logColumn((l) => l.stepOrder, 'int')},
        ${logColumn((l) => l.stepName, 'text')},
        ${logColumn((l) => l.attempt ?? 1, 'int')},
        ${logColumn((l) => l.status ?? 'running', 'text')},
        ${logColumn((l) => l.exitCode ?? null, 'bigint')},
        ${logColumn((l) => iso(l.startedAt), 'timestamptz')},
        ${logColumn((l) => iso(l.completedAt), 'timestamptz')},
        ${logColumn((l) => l.durationMs ?? null, 'int')},
        ${logColumn((l) => l.stdoutLog ?? '', 'text')},
        ${logColumn((l) => l.stderrLog ?? '', 'text')},
        ${logColumn((l) => l.output ?? null, 'text')},
        ${logColumn((l) => l.errorMessage ?? null, 'text')}
      ) as v(id, step_order, step_name, attempt, status, exit_code, started_at, completed_at, duration_ms,
             stdout_log, stderr_log, output, error_message)
    ),
    dev as (
      update ${deviceDeployments} d set
        progress_seq = r.seq,
        current_step_order = coalesce(r.step_order, d.current_step_order),
        status = case when r.row_started_at is null then d.status else 'running' end,
        started_at = coalesce(r.row_started_at, d.started_at),
        -- only rows with a candidate (an attempt ending completed with a reboot code) look at v
        reboot_required = d.reboot_required or (r.may_reboot and coalesce((
          select bool_or(coalesce(
            (select f.status = 'completed' and f.exit_code = any(${codes}) from ${deploymentStepLogs} f
              where f.device_deployment_id = v.id and f.step_order = v.step_order and f.attempt = v.attempt
                and f.status <> 'running'),
            true))
          from v where v.id = r.id and v.status = 'completed' and v.exit_code = any(${codes})), false))
      from r
      where d.id = r.id and d.progress_seq = r.expected_seq and d.status = r.expected_status
      returning d.id
    ),
    logs as (
      insert into ${deploymentStepLogs} as l (device_deployment_id, step_order, step_name, attempt, status,
        exit_code, started_at, completed_at, duration_ms, stdout_log, stderr_log, output, error_message)
      select v.id, v.step_order, v.step_name, v.attempt, v.status, v.exit_code, v.started_at, v.completed_at,
        v.duration_ms, v.stdout_log, v.stderr_log, v.output, v.error_message
      from v join dev on dev.id = v.id
      on conflict (device_deployment_id, step_order, attempt) do update set
        stdout_log = left(l.stdout_log || excluded.stdout_log, ${cap}),
        stderr_log = left(l.stderr_log || excluded.stderr_log, ${cap}),
        status = ${whenFinal('status')},
        exit_code = ${whenFinal('exit_code')},
        completed_at = ${whenFinal('completed_at')},
        error_message = ${whenFinal('error_message')},
        output = ${whenFinal('output')},
        duration_ms = case when ${isFinal}
          then ${durationSince(sql`coalesce(l.started_at, excluded.completed_at)`, sql`excluded.completed_at`)}
          else l.duration_ms end
      returning l.id, l.device_deployment_id, l.step_order, l.step_name, l.attempt, l.status,
        l.exit_code::float8 as exit_code, ${epochMs('started_at')}, ${epochMs('completed_at')}, l.duration_ms,
        l.error_message
    )
    select (select json_agg(id) from dev) as rows, (select json_agg(logs) from logs) as logs`);
  // two aggregates, not a join of the two: the planner has no row counts for a CTE and joined
  // them in a nested loop (a batch of 500 rows compared 250,000 pairs)
  const [out] = rowsOf<{ rows: number[] | null; logs: Record<string, unknown>[] | null }>(result);
  const numberOrNull = (v: unknown) => (v === null ? null : Number(v));
  const dateOrNull = (v: unknown) => (v === null ? null : new Date(Number(v)));
  const rows = new Set((out?.rows ?? []).map(Number));
  const logs: WrittenStepLog[] = [];
  for (const r of out?.logs ?? []) {
    logs.push({
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
    });
  }
  return { rows, logs };
}

export async function deleteStepLogs(tx: Executor, deviceDeploymentIds: number[]): Promise<void> {
  if (deviceDeploymentIds.length > 0) {
    await tx
      .delete(deploymentStepLogs)
      .where(inArray(deploymentStepLogs.deviceDeploymentId, deviceDeploymentIds));
  }
}

/**
 * Closes the attempts still shown running of the device rows in `ended`, a relation of
 * (id, status, error_message): with that status, the row's error when the attempt has none, and
 * the time since the attempt started.
 */
const closeRunningLogs = (ended: SQL) => sql`
  update ${deploymentStepLogs} l set
    status = e.status,
    completed_at = now(),
    error_message = coalesce(l.error_message, e.error_message),
    duration_ms = ${durationSince(sql`l.started_at`, sql`now()`)}
  from ${ended} as e(id, status, error_message)
  where l.device_deployment_id = e.id and l.status = 'running'`;

/** Attempts still shown running when their device deployment ends are closed with it. */
export async function closeRunningStepLogs(
  tx: Executor,
  deviceDeploymentId: number,
  status: JobStatus,
  errorMessage: string | null,
) {
  await tx.execute(
    closeRunningLogs(sql`(values (${deviceDeploymentId}::int, ${status}::text, ${errorMessage}::text))`),
  );
}

/** A device row's attempts close cancelled when the row completed, else with the row's status. */
const attemptStatus = (rowStatus: SQL) =>
  sql`case when ${rowStatus} = 'completed' then 'cancelled' else ${rowStatus} end`;

/**
 * Ends unfinished device rows as given (status, error, end, reboot flag, start when they had
 * none), each once, and closes the attempts still shown running with them (see attemptStatus).
 * The caller holds the rows' locks.
 */
export async function endDeviceDeployments(tx: Executor, rows: DeviceDeploymentRow[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const column = <T>(pick: (r: DeviceDeploymentRow) => T, type: string) => arrayParam(rows.map(pick), type);
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
  await tx.execute(
    closeRunningLogs(sql`(select v.id, ${attemptStatus(sql`v.status`)}, v.error_message from unnest(
      ${column((r) => r.id, 'int')},
      ${column((r) => r.status, 'text')},
      ${column((r) => r.errorMessage, 'text')}
    ) as v(id, status, error_message))`),
  );
}

/** How a run_deployment result ends its device row. */
export type CommandResultEnd = CommandOfDevice & {
  status: Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>;
  /** the row's error when it was still pending (the command expired), and when it was running */
  errorIfPending: string | null;
  error: string | null;
  rebootRequired: boolean;
};

/**
 * Ends the device rows of these run_deployment commands while they are unfinished, in one
 * statement: each row once (the update re-checks the status under its row lock, so a resent
 * result, or one racing a cancel, changes nothing), its attempts still shown running closed with
 * it. Answers the rows it ended.
 */
export async function endDeviceDeploymentsOfCommands(
  db: Executor,
  ends: CommandResultEnd[],
): Promise<DeviceDeploymentState[]> {
  if (ends.length === 0) {
    return [];
  }
  const column = <T>(pick: (e: CommandResultEnd) => T, type: string) => arrayParam(ends.map(pick), type);
  const result = await db.execute(sql`
    with v as (
      select * from unnest(
        ${column((e) => e.commandId, 'uuid')},
        ${column((e) => e.deviceId, 'int')},
        ${column((e) => e.status, 'text')},
        ${column((e) => e.errorIfPending, 'text')},
        ${column((e) => e.error, 'text')},
        ${column((e) => e.rebootRequired, 'boolean')}
      ) as v(command_id, device_id, status, error_if_pending, error, reboot)
    ),
    ended as (
      update ${deviceDeployments} d set
        status = v.status,
        error_message = case when d.status = 'pending' then v.error_if_pending else v.error end,
        completed_at = now(),
        reboot_required = d.reboot_required or v.reboot,
        started_at = coalesce(d.started_at, now())
      from v
      where d.command_id = v.command_id and d.device_id = v.device_id and d.status in ('pending', 'running')
      returning d.id, d.job_id, d.device_id, d.site_id, d.command_id, d.device_guid, d.status, d.progress_seq, d.error_message
    ),
    closed as (
      ${closeRunningLogs(sql`(select id, ${attemptStatus(sql`status`)}, error_message from ended)`)}
    )
    select * from ended`);
  return rowsOf<StateRow>(result).map(toState);
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
