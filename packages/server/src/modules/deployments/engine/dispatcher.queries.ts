import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { deploymentJobs, deviceDeployments, devices } from '../../../db/schema/index';
import { arrayParam } from '../../../lib/db';
import type { Executor } from '../../../lib/db';
import type { DeviceDeploymentRow, JobRow } from '../deployments.queries';

// The dispatcher's statements: claim due jobs, give their device rows their commands.

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

/**
 * A job's pending device rows not held back (a later wave of a rollout, a halted one: their hold
 * is set; docs/product/rollouts.md#device-states), as the dispatch needs them (id and device).
 */
export async function pendingDeviceDeploymentsOf(
  tx: Executor,
  jobId: number,
): Promise<Pick<DeviceDeploymentRow, 'id' | 'deviceId'>[]> {
  return tx
    .select({ id: deviceDeployments.id, deviceId: deviceDeployments.deviceId })
    .from(deviceDeployments)
    .where(
      and(
        eq(deviceDeployments.jobId, jobId),
        eq(deviceDeployments.status, 'pending'),
        isNull(deviceDeployments.hold),
      ),
    );
}

export async function markJobDispatched(tx: Executor, jobId: number): Promise<void> {
  await tx
    .update(deploymentJobs)
    .set({ dispatchedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(deploymentJobs.id, jobId));
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

/** The OS type of each of these devices (an agent update's command depends on it). */
export async function deviceOsTypes(
  tx: Executor,
  deviceIds: readonly number[],
): Promise<Map<number, string | null>> {
  if (deviceIds.length === 0) {
    return new Map();
  }
  const rows = await tx
    .select({ id: devices.id, osType: devices.osType })
    .from(devices)
    .where(inArray(devices.id, [...deviceIds]));
  return new Map(rows.map((r) => [r.id, r.osType]));
}
