import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import { deploymentStepLogs, deviceDeployments, devices } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import { ACTIVE } from './deployments.queries';

// Device rows a job waits for: unfinished, dispatched (a command and an expiry), and their device
// offline (docs/architecture.md, "Devices a job waits for"). Only rows the caller may see.

export type OfflineWaitRow = {
  id: number;
  deviceId: number;
  hostname: string | null;
  status: JobStatus;
  commandId: string;
  expiresAt: Date | null;
  currentStepOrder: number | null;
  /** the device's last_seen: it has been offline since */
  offlineSince: Date | null;
  /** the start of the running attempt of the current step, if one is still shown running */
  stepStartedAt: Date | null;
};

const runningStepStart = sql<string | null>`(
  select max(l.started_at) from ${deploymentStepLogs} l
  where l.device_deployment_id = ${deviceDeployments.id}
    and l.step_order = ${deviceDeployments.currentStepOrder}
    and l.status = 'running')`;

/**
 * The job's waiting rows in the caller's scope; `lock` locks them (the caller holds the job's
 * lock first: the lock order of engine/deployment-engine.ts).
 */
export async function offlineWaitsOf(
  db: Executor,
  scope: Scope,
  jobId: number,
  opts: { lock?: boolean } = {},
): Promise<OfflineWaitRow[]> {
  const query = db
    .select({
      id: deviceDeployments.id,
      deviceId: devices.id,
      hostname: deviceDeployments.hostname,
      status: deviceDeployments.status,
      commandId: deviceDeployments.commandId,
      expiresAt: deviceDeployments.expiresAt,
      currentStepOrder: deviceDeployments.currentStepOrder,
      offlineSince: devices.lastSeen,
      stepStartedAt: runningStepStart,
    })
    .from(deviceDeployments)
    .innerJoin(devices, eq(devices.id, deviceDeployments.deviceId))
    .where(
      and(
        eq(deviceDeployments.jobId, jobId),
        inScope(deviceDeployments, scope),
        inArray(deviceDeployments.status, ACTIVE),
        isNotNull(deviceDeployments.commandId),
        eq(devices.status, 'offline'),
      ),
    );
  const rows = opts.lock ? await query.for('update', { of: deviceDeployments }) : await query;
  return rows.map((r) => ({
    ...r,
    commandId: r.commandId ?? '',
    // a raw subquery comes back as text
    stepStartedAt: r.stepStartedAt ? new Date(r.stepStartedAt) : null,
  }));
}
