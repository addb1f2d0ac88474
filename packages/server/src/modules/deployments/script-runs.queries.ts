import { and, count, desc, eq, exists, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import { SCRIPT_STEP_ORDER } from '@outpost/contract/script-runs';
import { deploymentJobs, deploymentStepLogs, deviceDeployments } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant, isSiteLimited } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import type { JobRow } from './deployments.queries';

// Reads of script runs (docs/product/scripts.md#runs): jobs of kind `script`, their device rows
// and each row's one step log. A site-limited caller sees a run with a device in their sites, and
// of its devices only those (as a deployment).

const rowVisible = (scope: Scope): SQL | undefined =>
  isSiteLimited(scope) ? inScope(deviceDeployments, scope) : undefined;

function runVisible(db: Reader, scope: Scope): SQL {
  const base = and(inTenant(deploymentJobs, scope), eq(deploymentJobs.kind, 'script'))!;
  if (!isSiteLimited(scope)) {
    return base;
  }
  const mine = db
    .select({ one: sql`1` })
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, deploymentJobs.id), inScope(deviceDeployments, scope)));
  return and(base, exists(mine))!;
}

const scriptIdOf = sql`(${deploymentJobs.scriptRun} ->> 'script_id')::int`;

export async function listRuns(
  db: Reader,
  scope: Scope,
  filter: { scriptId?: number; limit: number; offset: number },
): Promise<{ rows: JobRow[]; total: number }> {
  const where = and(
    runVisible(db, scope),
    filter.scriptId === undefined ? undefined : eq(scriptIdOf, filter.scriptId),
  );
  const rows = await db
    .select()
    .from(deploymentJobs)
    .where(where)
    .orderBy(desc(deploymentJobs.createdAt), desc(deploymentJobs.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [total] = await db.select({ n: count() }).from(deploymentJobs).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findRun(db: Executor, scope: Scope, id: number): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(deploymentJobs)
    .where(and(runVisible(db, scope), eq(deploymentJobs.id, id)))
    .limit(1);
  return row ?? null;
}

/** Per run: its visible device rows by status. */
export async function countsByStatus(
  db: Reader,
  scope: Scope,
  jobIds: number[],
): Promise<Map<number, Map<JobStatus, number>>> {
  const out = new Map<number, Map<JobStatus, number>>();
  if (jobIds.length === 0) {
    return out;
  }
  const rows = await db
    .select({ jobId: deviceDeployments.jobId, status: deviceDeployments.status, n: count() })
    .from(deviceDeployments)
    .where(and(inArray(deviceDeployments.jobId, jobIds), rowVisible(scope)))
    .groupBy(deviceDeployments.jobId, deviceDeployments.status);
  for (const r of rows) {
    const m = out.get(r.jobId) ?? new Map<JobStatus, number>();
    m.set(r.status, r.n);
    out.set(r.jobId, m);
  }
  return out;
}

/** A run's visible device rows with the latest attempt of its step (output, exit code, duration). */
export async function runDeviceRows(db: Reader, scope: Scope, jobId: number) {
  return db
    .select({
      id: deviceDeployments.id,
      deviceGuid: deviceDeployments.deviceGuid,
      hostname: deviceDeployments.hostname,
      status: deviceDeployments.status,
      startedAt: deviceDeployments.startedAt,
      completedAt: deviceDeployments.completedAt,
      errorMessage: deviceDeployments.errorMessage,
      exitCode: deploymentStepLogs.exitCode,
      durationMs: deploymentStepLogs.durationMs,
      stdoutLog: deploymentStepLogs.stdoutLog,
      stdoutCutBytes: deploymentStepLogs.stdoutCutBytes,
    })
    .from(deviceDeployments)
    .leftJoin(
      deploymentStepLogs,
      and(
        eq(deploymentStepLogs.deviceDeploymentId, deviceDeployments.id),
        eq(deploymentStepLogs.stepOrder, SCRIPT_STEP_ORDER),
        eq(deploymentStepLogs.attempt, 1),
      ),
    )
    .where(and(eq(deviceDeployments.jobId, jobId), rowVisible(scope)))
    .orderBy(deviceDeployments.hostname, deviceDeployments.id);
}

/**
 * The script job of a device's unfinished run_script command (the agent fetching its secrets):
 * only the device the command was given to, only while its row is pending or running.
 */
export async function activeScriptJobOfCommand(
  db: Reader,
  deviceId: number,
  commandId: string,
): Promise<JobRow | null> {
  const [row] = await db
    .select({ job: deploymentJobs })
    .from(deviceDeployments)
    .innerJoin(deploymentJobs, eq(deploymentJobs.id, deviceDeployments.jobId))
    .where(
      and(
        eq(deviceDeployments.commandId, commandId),
        eq(deviceDeployments.deviceId, deviceId),
        inArray(deviceDeployments.status, ['pending', 'running']),
        eq(deploymentJobs.kind, 'script'),
      ),
    )
    .limit(1);
  return row?.job ?? null;
}
