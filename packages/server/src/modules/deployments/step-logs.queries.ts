import { asc, count, eq } from 'drizzle-orm';
import type { StepLog } from '@outpost/contract/deployments';
import { deploymentStepLogs } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import type { StepLogRow } from './deployments.queries';
import { withCutMarker } from './step-log-rules';

// Reading a device deployment's step logs, a page at a time (SECURITY.md R2-13). They are
// written by the engine's progress statement (deployments.queries.ts writeStepProgress).

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
  };
}
