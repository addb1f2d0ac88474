import { asc, count, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { INT4_MAX } from '@outpost/contract/input';
import type { StepLog } from '@outpost/contract/deployments';
import { deploymentStepLogs } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import type { StepLogRow } from './deployments.queries';
import { withCutMarker } from './step-log-rules';

// Reading a device deployment's step logs, a page at a time (SECURITY.md R2-13). They are
// written by the engine's progress statement (engine/agent-progress.queries.ts writeStepProgress).

/** One page of a device deployment's attempts, in step order then attempt, and how many it has. */
export async function listStepLogsPage(
  db: Executor,
  deviceDeploymentId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: StepLogRow[]; total: number }> {
  const where = eq(deploymentStepLogs.deviceDeploymentId, deviceDeploymentId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(deploymentStepLogs)
      .where(where)
      .orderBy(asc(deploymentStepLogs.stepOrder), asc(deploymentStepLogs.attempt))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(deploymentStepLogs).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** An attempt as the API answers it: a stream whose middle was cut says so where it was cut. */
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
    stdout_log: withCutMarker(row.stdoutLog, row.stdoutCutBytes),
    output: row.output,
    stderr_log: withCutMarker(row.stderrLog, row.stderrCutBytes),
    error_message: row.errorMessage,
    note: row.note,
  };
}

// ---------- closing attempts when their device row ends ----------

/**
 * Milliseconds from `start` to `end` as an attempt's duration: at least 0 and at most the int4
 * column's limit (the times are the agent's clock; one set years off must not fail its batch).
 */
export const durationSince = (start: SQL, end: SQL) =>
  sql`least(${INT4_MAX}, greatest(0, extract(epoch from (${end} - ${start})) * 1000))::int`;

/**
 * Closes the attempts still shown running of the device rows in `ended`, a relation of
 * (id, status, error_message): with that status, the row's error when the attempt has none, and
 * the time since the attempt started.
 */
export const closeRunningLogs = (ended: SQL) => sql`
  update ${deploymentStepLogs} l set
    status = e.status,
    completed_at = now(),
    error_message = coalesce(l.error_message, e.error_message),
    duration_ms = ${durationSince(sql`l.started_at`, sql`now()`)}
  from ${ended} as e(id, status, error_message)
  where l.device_deployment_id = e.id and l.status = 'running'`;

/** A device row's attempts close cancelled when the row completed, else with the row's status. */
export const attemptStatus = (rowStatus: SQL) =>
  sql`case when ${rowStatus} = 'completed' then 'cancelled' else ${rowStatus} end`;
