import { count, eq } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import { deploymentJobs, deviceDeployments } from '../../../db/schema/index';
import { firstOrThrow } from '../../../lib/db';
import type { Executor } from '../../../lib/db';
import type { JobRow } from '../deployments.queries';

// The settler's statements: the job row locked, its device rows counted by status (the job is
// written back with deployments.queries.ts updateJob).

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
