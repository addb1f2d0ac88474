import { count } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import type { Reader } from '../lib/db';
import { deploymentJobs, deviceDeployments } from '../db/schema/index';

// The metrics' database gauges (plugins/metrics.ts), read at scrape time. They count every
// tenant's rows: an operator's view of the whole installation, never shown to a tenant.

export type StatusCount = { status: JobStatus; count: number };

/** Deployment jobs per status, all tenants: one grouped query. */
export async function jobsByStatus(db: Reader): Promise<StatusCount[]> {
  return db
    .select({ status: deploymentJobs.status, count: count() })
    .from(deploymentJobs)
    .groupBy(deploymentJobs.status);
}

/** Device deployments per status, all tenants: one grouped query. */
export async function deviceDeploymentsByStatus(db: Reader): Promise<StatusCount[]> {
  return db
    .select({ status: deviceDeployments.status, count: count() })
    .from(deviceDeployments)
    .groupBy(deviceDeployments.status);
}
