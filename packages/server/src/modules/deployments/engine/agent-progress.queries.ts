import { eq, inArray, sql } from 'drizzle-orm';
import type { JobStatus, StepStatus } from '@outpost/contract/live';
import { STEP_LOG_MAX_CHARS } from '@outpost/contract/limits';
import { deploymentJobs, deploymentStepLogs, deviceDeployments } from '../../../db/schema/index';
import { arrayParam, firstOrThrow, rowsOf } from '../../../lib/db';
import type { Executor } from '../../../lib/db';
import { emitJobEvent } from '../job-events';
import type { JobRow, NewStepLog, WrittenStepLog } from '../deployments.queries';
import { durationSince } from '../step-logs.queries';
import { STEP_LOG_HEAD_CHARS, STEP_LOG_TAIL_CHARS } from '../step-log-rules';
import { isCommandOfDevice, toState } from './device-rows.queries';
import type { CommandOfDevice, DeviceDeploymentState, StateRow } from './device-rows.queries';

// The statements of agents' step progress: the device rows of the commands reported, one
// statement writing rows and logs, the jobs their first devices start.

/** The job row as it is, without a lock (its steps never change once it exists). */
export async function readJobById(tx: Executor, jobId: number): Promise<JobRow> {
  return firstOrThrow(
    await tx.select().from(deploymentJobs).where(eq(deploymentJobs.id, jobId)).limit(1),
    'read job',
  );
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
  const started = await db.execute(sql`
    update ${deploymentJobs} set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
    where id = any(${arrayParam(jobIds, 'int')}) and status = 'pending'
    returning id, tenant_id, name, status, kind`);
  for (const j of rowsOf<{ id: number; tenant_id: number; name: string; status: string; kind: string }>(
    started,
  )) {
    await emitJobEvent(db, {
      id: Number(j.id),
      tenantId: Number(j.tenant_id),
      name: j.name,
      status: j.status,
      kind: j.kind,
    });
  }
}

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

/** What a device's progress messages of one batch write: its device row, and the logs of their attempts. */
export type ProgressWrite = {
  /** the device row as it was read: the write applies only while the row is still so */
  id: number;
  expectedSeq: number;
  expectedStatus: JobStatus;
  /** the seq of the row's last message in the batch */
  progressSeq: number;
  /**
   * the device restarts for a step: the row is held 'rebooting' with this note; null clears a
   * 'rebooting' hold (the agent is back), other holds stay (docs/product/rollouts.md#reboot-message-and-wait-steps)
   */
  rebootHold?: { note: string } | null;
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
 * appended (each stream kept to its head and tail, `keptLog`) and, while it is still running, the final
 * fields of a final message (status, exit code, end, error, notes, and its duration from its own
 * start). A step asks for a reboot when its attempt ends completed with one of `rebootCodes` (an
 * attempt already final keeps its own status and code). Answers the rows written (a row left
 * alone is not among them) and the logs as written, without their output text.
 */
// An attempt's stream with a chunk appended, kept within STEP_LOG_MAX_CHARS: its head and its
// tail (step-log-rules.ts keepHeadAndTail, the same rule; both sides hold it, so a cut is always
// right after the head), and the bytes cut so far.
// the limits are the contract's constants, written into the statement as numbers
const MAX = sql.raw(String(STEP_LOG_MAX_CHARS));
const HEAD = sql.raw(String(STEP_LOG_HEAD_CHARS));
const TAIL = sql.raw(String(STEP_LOG_TAIL_CHARS));
const appended = (column: string) => sql`(l.${sql.identifier(column)} || excluded.${sql.identifier(column)})`;
const keptLog = (column: string) => sql`case when char_length(${appended(column)}) <= ${MAX}
    then ${appended(column)}
    else left(${appended(column)}, ${HEAD}) || right(${appended(column)}, ${TAIL}) end`;
const cutBytesAfter = (column: string, cutColumn: string) => sql`l.${sql.identifier(cutColumn)}
    + excluded.${sql.identifier(cutColumn)}
    + case when char_length(${appended(column)}) <= ${MAX} then 0
      else octet_length(substr(${appended(column)}, ${HEAD} + 1,
        char_length(${appended(column)}) - ${MAX})) end`;

export async function writeStepProgress(
  db: Executor,
  writes: ProgressWrite[],
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
        ${column((w) => w.logs.some((l) => l.status === 'completed' && isRebootCode(l.exitCode)), 'boolean')},
        ${column((w) => w.rebootHold?.note ?? null, 'text')}
      ) as r(id, expected_seq, expected_status, seq, step_order, row_started_at, may_reboot, reboot_note)
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
        ${logColumn((l) => l.stdoutCutBytes ?? 0, 'bigint')},
        ${logColumn((l) => l.stderrCutBytes ?? 0, 'bigint')},
        ${logColumn((l) => l.output ?? null, 'text')},
        ${logColumn((l) => l.errorMessage ?? null, 'text')},
        ${logColumn((l) => l.note ?? null, 'text')}
      ) as v(id, step_order, step_name, attempt, status, exit_code, started_at, completed_at, duration_ms,
             stdout_log, stderr_log, stdout_cut_bytes, stderr_cut_bytes, output, error_message, note)
    ),
    dev as (
      update ${deviceDeployments} d set
        progress_seq = r.seq,
        current_step_order = coalesce(r.step_order, d.current_step_order),
        status = case when r.row_started_at is null then d.status else 'running' end,
        started_at = coalesce(r.row_started_at, d.started_at),
        hold = case when r.reboot_note is not null then 'rebooting'
          when d.hold = 'rebooting' then null else d.hold end,
        hold_note = case when r.reboot_note is not null then r.reboot_note
          when d.hold = 'rebooting' then null else d.hold_note end,
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
        exit_code, started_at, completed_at, duration_ms, stdout_log, stderr_log, stdout_cut_bytes,
        stderr_cut_bytes, output, error_message, note)
      select v.id, v.step_order, v.step_name, v.attempt, v.status, v.exit_code, v.started_at, v.completed_at,
        v.duration_ms, v.stdout_log, v.stderr_log, v.stdout_cut_bytes, v.stderr_cut_bytes, v.output, v.error_message,
        v.note
      from v join dev on dev.id = v.id
      on conflict (device_deployment_id, step_order, attempt) do update set
        stdout_log = ${keptLog('stdout_log')},
        stdout_cut_bytes = ${cutBytesAfter('stdout_log', 'stdout_cut_bytes')},
        stderr_log = ${keptLog('stderr_log')},
        stderr_cut_bytes = ${cutBytesAfter('stderr_log', 'stderr_cut_bytes')},
        status = ${whenFinal('status')},
        exit_code = ${whenFinal('exit_code')},
        completed_at = ${whenFinal('completed_at')},
        error_message = ${whenFinal('error_message')},
        output = ${whenFinal('output')},
        note = coalesce(excluded.note, l.note),
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
      status: r.status as StepStatus,
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
