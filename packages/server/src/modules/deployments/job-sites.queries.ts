import { eq } from 'drizzle-orm';
import { deviceDeployments } from '../../db/schema/index';
import type { Executor } from '../../lib/db';

/** The sites of a job's devices (null for a device without a site): its audit entries name them. */
export async function jobSiteIds(tx: Executor, jobId: number): Promise<(number | null)[]> {
  const rows = await tx
    .select({ siteId: deviceDeployments.siteId })
    .from(deviceDeployments)
    .where(eq(deviceDeployments.jobId, jobId))
    .groupBy(deviceDeployments.siteId);
  return rows.map((r) => r.siteId);
}
