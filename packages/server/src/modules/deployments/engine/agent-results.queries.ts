import { sql } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import { deviceDeployments } from '../../../db/schema/index';
import { arrayParam, rowsOf } from '../../../lib/db';
import type { Executor } from '../../../lib/db';
import { attemptStatus, closeRunningLogs } from '../step-logs.queries';
import { toState } from './device-rows.queries';
import type { CommandOfDevice, DeviceDeploymentState, StateRow } from './device-rows.queries';

// The statement of agents' run_deployment results: their device rows ended, each once.

/** How a run_deployment result ends its device row. */
export type CommandResultEnd = CommandOfDevice & {
  status: Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>;
  /** the row's error when it was still pending (the command expired), and when it was running */
  errorIfPending: string | null;
  error: string | null;
  rebootRequired: boolean;
};

/**
 * Ends the device rows of these run_deployment commands while they are unfinished, in one
 * statement: each row once (the update re-checks the status under its row lock, so a resent
 * result, or one racing a cancel, changes nothing), its attempts still shown running closed with
 * it. Answers the rows it ended.
 */
export async function endDeviceDeploymentsOfCommands(
  db: Executor,
  ends: CommandResultEnd[],
): Promise<DeviceDeploymentState[]> {
  if (ends.length === 0) {
    return [];
  }
  const column = <T>(pick: (e: CommandResultEnd) => T, type: string) => arrayParam(ends.map(pick), type);
  const result = await db.execute(sql`
    with v as (
      select * from unnest(
        ${column((e) => e.commandId, 'uuid')},
        ${column((e) => e.deviceId, 'int')},
        ${column((e) => e.status, 'text')},
        ${column((e) => e.errorIfPending, 'text')},
        ${column((e) => e.error, 'text')},
        ${column((e) => e.rebootRequired, 'boolean')}
      ) as v(command_id, device_id, status, error_if_pending, error, reboot)
    ),
    ended as (
      update ${deviceDeployments} d set
        status = v.status,
        error_message = case when d.status = 'pending' then v.error_if_pending else v.error end,
        completed_at = now(),
        reboot_required = d.reboot_required or v.reboot,
        started_at = coalesce(d.started_at, now())
      from v
      where d.command_id = v.command_id and d.device_id = v.device_id and d.status in ('pending', 'running')
      returning d.id, d.job_id, d.device_id, d.site_id, d.command_id, d.device_guid, d.status, d.progress_seq, d.error_message
    ),
    closed as (
      ${closeRunningLogs(sql`(select id, ${attemptStatus(sql`status`)}, error_message from ended)`)}
    )
    select * from ended`);
  return rowsOf<StateRow>(result).map(toState);
}
