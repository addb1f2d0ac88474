import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { deploymentJobs, deviceDeployments } from '../../../db/schema/index';
import { arrayParam, rowsOf } from '../../../lib/db';
import type { Executor } from '../../../lib/db';
import { ACTIVE } from '../deployments.queries';
import type { JobRow } from '../deployments.queries';
import { toState } from './device-rows.queries';
import type { DeviceDeploymentState, StateRow } from './device-rows.queries';

// The statements of maintenance windows in the engine (docs/product/rollouts.md#maintenance-windows):
// rows held until their window opens, rows whose opening came, rows whose window closed mid-run.

export type WindowHold = {
  id: number;
  until: Date | null;
  note: string;
  /** the offline expiry counts from the window's opening (docs/decisions/2026-11-27-maintenance-window-expiry.md) */
  expiresAt: Date | null;
};

/** Holds these device rows for their window (no command; the release pass dispatches them). */
export async function holdForWindow(tx: Executor, holds: WindowHold[]): Promise<void> {
  if (holds.length === 0) {
    return;
  }
  await tx.execute(sql`
    update ${deviceDeployments} d set hold = 'window', hold_until = v.until, hold_note = v.note,
      expires_at = v.expires_at, command_id = null
    from unnest(
      ${arrayParam(
        holds.map((h) => h.id),
        'int',
      )},
      ${arrayParam(
        holds.map((h) => h.until?.toISOString() ?? null),
        'timestamptz',
      )},
      ${arrayParam(
        holds.map((h) => h.note),
        'text',
      )},
      ${arrayParam(
        holds.map((h) => h.expiresAt?.toISOString() ?? null),
        'timestamptz',
      )}
    ) as v(id, until, note, expires_at)
    where d.id = v.id and d.status in ('pending', 'running')`);
}

export type DueHeldRow = {
  id: number;
  deviceId: number;
  resumeStepOrder: number | null;
  job: JobRow;
};

/** Rows held for their window whose opening is due (at `now`), locked; other instances skip them. */
export async function claimDueWindowRows(tx: Executor, now: Date, limit: number): Promise<DueHeldRow[]> {
  const rows = await tx
    .select({
      id: deviceDeployments.id,
      deviceId: deviceDeployments.deviceId,
      resumeStepOrder: deviceDeployments.resumeStepOrder,
      job: deploymentJobs,
    })
    .from(deviceDeployments)
    .innerJoin(deploymentJobs, eq(deploymentJobs.id, deviceDeployments.jobId))
    .where(
      and(
        eq(deviceDeployments.hold, 'window'),
        inArray(deviceDeployments.status, ACTIVE),
        isNotNull(deviceDeployments.holdUntil),
        lte(deviceDeployments.holdUntil, now),
        isNotNull(deviceDeployments.deviceId),
        inArray(deploymentJobs.status, ACTIVE),
      ),
    )
    .orderBy(asc(deviceDeployments.holdUntil))
    .limit(limit)
    .for('update', { of: deviceDeployments, skipLocked: true });
  return rows.flatMap((r) => (r.deviceId === null ? [] : [{ ...r, deviceId: r.deviceId }]));
}

/** Released rows get their new command, their expiry and a fresh progress sequence. */
export async function releaseWindowRows(
  tx: Executor,
  rows: { id: number; commandId: string }[],
  expiresAt: Date,
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await tx.execute(sql`
    update ${deviceDeployments} d set command_id = v.command_id, expires_at = ${expiresAt.toISOString()}::timestamptz,
      hold = null, hold_until = null, hold_note = null, progress_seq = 0
    from unnest(${arrayParam(
      rows.map((r) => r.id),
      'int',
    )}, ${arrayParam(
      rows.map((r) => r.commandId),
      'uuid',
    )}) as v(id, command_id)
    where d.id = v.id`);
}

export type WindowClosed = {
  deviceId: number;
  commandId: string;
  stepOrder: number;
  until: Date | null;
  note: string;
  expiresAt: Date | null;
};

/**
 * A run stopped because the window closed before a step: its row waits for the next opening and
 * resumes at that step (once: the command is taken off the row, so a resent result matches none).
 */
export async function holdAfterWindowClosed(
  tx: Executor,
  ends: WindowClosed[],
): Promise<DeviceDeploymentState[]> {
  if (ends.length === 0) {
    return [];
  }
  const column = <T>(pick: (e: WindowClosed) => T, type: string) => arrayParam(ends.map(pick), type);
  const result = await tx.execute(sql`
    update ${deviceDeployments} d set hold = 'window', hold_until = v.until, hold_note = v.note,
      expires_at = v.expires_at, resume_step_order = v.step, command_id = null
    from unnest(
      ${column((e) => e.commandId, 'uuid')},
      ${column((e) => e.deviceId, 'int')},
      ${column((e) => e.stepOrder, 'int')},
      ${column((e) => e.until?.toISOString() ?? null, 'timestamptz')},
      ${column((e) => e.note, 'text')},
      ${column((e) => e.expiresAt?.toISOString() ?? null, 'timestamptz')}
    ) as v(command_id, device_id, step, until, note, expires_at)
    where d.command_id = v.command_id and d.device_id = v.device_id and d.status in ('pending', 'running')
    returning d.id, d.job_id, d.device_id, d.site_id, d.command_id, d.device_guid, d.status, d.progress_seq, d.error_message`);
  return rowsOf<StateRow>(result).map(toState);
}
