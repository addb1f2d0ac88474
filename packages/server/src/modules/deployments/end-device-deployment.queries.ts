import { sql } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import { deviceDeployments } from '../../db/schema/index';
import { arrayParam } from '../../lib/db';
import type { Executor } from '../../lib/db';
import type { DeviceDeploymentRow } from './deployments.queries';
import { closeRunningLogs } from './step-logs.queries';

// The statements that end many device rows of a job by hand at once (end-device-deployment.ts):
// a cancel of a 1,000-device job is two statements here, not two per device.

/** Ends these device rows with one status and reason; answers the rows in the order of `ids`. */
export async function endDeviceDeploymentRows(
  tx: Executor,
  ids: readonly number[],
  end: { status: JobStatus; errorMessage: string; completedAt: Date },
): Promise<DeviceDeploymentRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await tx
    .update(deviceDeployments)
    .set(end)
    .where(sql`${deviceDeployments.id} = any(${arrayParam(ids, 'int')})`)
    .returning();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/** Closes the attempts still shown running of these device rows, with one status and reason. */
export async function closeRunningStepLogsOf(
  tx: Executor,
  ids: readonly number[],
  status: JobStatus,
  errorMessage: string | null,
): Promise<void> {
  if (ids.length === 0) {
    return;
  }
  await tx.execute(
    closeRunningLogs(
      sql`(select id, ${status}::text, ${errorMessage}::text from unnest(${arrayParam(ids, 'int')}) as u(id))`,
    ),
  );
}
