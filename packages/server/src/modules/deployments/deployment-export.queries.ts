import { and, asc, eq, gt } from 'drizzle-orm';
import { deviceDeployments } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import type { DeviceDeploymentRow } from './deployments.queries';

// A job's device rows for the CSV export (docs/product/device-sets.md#exports): the rows the
// caller may see, by id after `afterId` (keyset), a page at a time.
export function deviceDeploymentsAfter(
  db: Executor,
  scope: Scope,
  jobId: number,
  afterId: number,
  limit: number,
): Promise<DeviceDeploymentRow[]> {
  return db
    .select()
    .from(deviceDeployments)
    .where(
      and(
        eq(deviceDeployments.jobId, jobId),
        inScope(deviceDeployments, scope),
        gt(deviceDeployments.id, afterId),
      ),
    )
    .orderBy(asc(deviceDeployments.id))
    .limit(limit);
}
