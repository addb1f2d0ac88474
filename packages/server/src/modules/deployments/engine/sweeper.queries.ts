import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { deploymentJobs, deviceCommands, deviceDeployments } from '../../../db/schema/index';
import { arrayParam, rowsOf } from '../../../lib/db';
import type { Executor } from '../../../lib/db';
import { ACTIVE } from '../deployments.queries';
import type { DeviceDeploymentRow } from '../deployments.queries';
import { attemptStatus, closeRunningLogs } from '../step-logs.queries';

// The sweeper's statements: overdue device rows, rows whose command ended without its result
// applied, and active jobs whose counters disagree with their rows.

/**
 * Unfinished device rows whose command has ended at least `ageMs` ago: its result was recorded
 * but not applied here (a crash between the two), or it expired when the device reconnected.
 */
export async function staleCommandRows(
  db: Executor,
  ageMs: number,
  limit: number,
): Promise<{ commandId: string; deviceId: number }[]> {
  const rows = await db
    .select({ commandId: deviceDeployments.commandId, deviceId: deviceDeployments.deviceId })
    .from(deviceDeployments)
    .innerJoin(deviceCommands, eq(deviceCommands.id, deviceDeployments.commandId))
    .where(
      and(
        inArray(deviceDeployments.status, ACTIVE),
        inArray(deviceCommands.status, ['completed', 'failed']),
        lte(deviceCommands.completedAt, sql`now() - make_interval(secs => ${ageMs / 1000})`),
      ),
    )
    .limit(limit);
  return rows.flatMap((r) =>
    r.commandId && r.deviceId !== null ? [{ commandId: r.commandId, deviceId: r.deviceId }] : [],
  );
}

/**
 * Active jobs whose counters disagree with their device rows: changed rows whose settle never ran
 * (the instance that applied them stopped first). A pending job with a started row counts too.
 */
export async function unsettledJobs(db: Executor, limit: number): Promise<number[]> {
  const result = await db.execute(sql`
    select j.id from ${deploymentJobs} j
    cross join lateral (
      select count(*) filter (where d.status = 'completed')::int as completed,
             count(*) filter (where d.status = 'failed')::int as failed,
             count(*) filter (where d.status <> 'pending')::int as started
      from ${deviceDeployments} d where d.job_id = j.id
    ) c
    where j.status in ('pending', 'running')
      and (c.completed <> j.completed_devices or c.failed <> j.failed_devices
           or (j.status = 'pending' and c.started > 0))
    limit ${limit}`);
  return rowsOf<{ id: number }>(result).map((r) => Number(r.id));
}

/**
 * Unfinished device deployments past their expiry (the device never took the work, or went away
 * while running and stayed away), or whose device was removed; locked, skipping rows another
 * instance is handling.
 */
export async function claimOverdueDeviceDeployments(tx: Executor, limit: number) {
  return tx
    .select()
    .from(deviceDeployments)
    .where(
      and(
        inArray(deviceDeployments.status, ACTIVE),
        or(
          isNull(deviceDeployments.deviceId),
          and(
            lte(deviceDeployments.expiresAt, sql`now()`),
            or(
              eq(deviceDeployments.status, 'pending'),
              sql`not exists (select 1 from devices d where d.id = ${deviceDeployments.deviceId} and d.status <> 'offline')`,
            ),
          ),
        ),
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Ends unfinished device rows as given (status, error, end, reboot flag, start when they had
 * none), each once, and closes the attempts still shown running with them (see attemptStatus).
 * The caller holds the rows' locks.
 */
export async function endDeviceDeployments(tx: Executor, rows: DeviceDeploymentRow[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const column = <T>(pick: (r: DeviceDeploymentRow) => T, type: string) => arrayParam(rows.map(pick), type);
  await tx.execute(sql`
    update ${deviceDeployments} d set
      status = v.status,
      error_message = v.error_message,
      completed_at = v.completed_at,
      reboot_required = v.reboot,
      started_at = coalesce(d.started_at, v.started_at)
    from unnest(
      ${column((r) => r.id, 'int')},
      ${column((r) => r.status, 'text')},
      ${column((r) => r.errorMessage, 'text')},
      ${column((r) => r.completedAt?.toISOString() ?? null, 'timestamptz')},
      ${column((r) => r.rebootRequired, 'boolean')},
      ${column((r) => r.startedAt?.toISOString() ?? null, 'timestamptz')}
    ) as v(id, status, error_message, completed_at, reboot, started_at)
    where d.id = v.id`);
  await tx.execute(
    closeRunningLogs(sql`(select v.id, ${attemptStatus(sql`v.status`)}, v.error_message from unnest(
      ${column((r) => r.id, 'int')},
      ${column((r) => r.status, 'text')},
      ${column((r) => r.errorMessage, 'text')}
    ) as v(id, status, error_message))`),
  );
}
