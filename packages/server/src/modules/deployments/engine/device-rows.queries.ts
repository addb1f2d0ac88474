import { sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { JobStatus } from '@outpost/contract/live';
import { arrayParam } from '../../../lib/db';
import type { DeviceDeploymentRow } from '../deployments.queries';

// What agents' reports (progress and results) read and write of a device row, by the command
// it runs.

/** A command as an agent names it: only its own device's commands count. */
export type CommandOfDevice = { deviceId: number; commandId: string };

// The batch statements below take one array parameter per column (unnest, lib/db.ts arrayParam),
// not one parameter per value: a batch of 500 messages is a handful of parameters.

/** `(command_id, device_id) in (…)` for these pairs, by the command index. */
export function isCommandOfDevice(
  commandId: SQL | AnyColumn,
  deviceId: SQL | AnyColumn,
  pairs: CommandOfDevice[],
) {
  const commands = arrayParam(
    pairs.map((p) => p.commandId),
    'uuid',
  );
  const devices = arrayParam(
    pairs.map((p) => p.deviceId),
    'int',
  );
  return sql`${commandId} = any(${commands}) and (${commandId}, ${deviceId}) in (select * from unnest(${commands}, ${devices}))`;
}

/** What applying an agent's message needs of its device row. */
export type DeviceDeploymentState = Pick<
  DeviceDeploymentRow,
  | 'id'
  | 'jobId'
  | 'deviceId'
  | 'siteId'
  | 'commandId'
  | 'deviceGuid'
  | 'status'
  | 'progressSeq'
  | 'errorMessage'
>;

export type StateRow = {
  id: number;
  job_id: number;
  device_id: number | null;
  site_id: number | null;
  command_id: string | null;
  device_guid: string | null;
  status: JobStatus;
  progress_seq: number;
  error_message: string | null;
};

export const toState = (r: StateRow): DeviceDeploymentState => ({
  id: Number(r.id),
  jobId: Number(r.job_id),
  deviceId: r.device_id === null ? null : Number(r.device_id),
  siteId: r.site_id === null ? null : Number(r.site_id),
  commandId: r.command_id,
  deviceGuid: r.device_guid,
  status: r.status,
  progressSeq: Number(r.progress_seq),
  errorMessage: r.error_message,
});
