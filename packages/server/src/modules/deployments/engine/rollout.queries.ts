import { and, asc, count, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { DeviceHold } from '@outpost/contract/rollouts';
import { deploymentJobs, deploymentWaves, deviceCommands, deviceDeployments } from '../../../db/schema/index';
import { arrayParam, rowsOf } from '../../../lib/db';
import type { Executor, Reader } from '../../../lib/db';
import type { JobRow } from '../deployments.queries';
import type { PlannedWave, WaveCounts } from './rollout-rules';

// The rollout part's statements (docs/product/rollouts.md#waves): a job's waves, their counts
// from the device rows, the atomic claim of the next wave and the holds of device rows.

export type WaveRow = typeof deploymentWaves.$inferSelect;
export type NewWave = typeof deploymentWaves.$inferInsert;

/** A new job's waves and its device rows' wave and hold (the first wave's rows are not held). */
export async function insertWaves(
  tx: Executor,
  jobId: number,
  waves: readonly PlannedWave[],
  holdNote: (index: number) => string,
): Promise<void> {
  await tx.insert(deploymentWaves).values(
    waves.map((w) => ({
      jobId,
      waveIndex: w.index,
      name: w.name,
      groupId: w.groupId,
      percent: w.percent,
      minFinishedPercent: w.gate.min_finished_percent,
      minSuccessPercent: w.gate.min_success_percent,
      soakMinutes: w.gate.soak_minutes,
      totalDevices: w.deviceIds.length,
    })),
  );
  const rows = waves.flatMap((w) => w.deviceIds.map((deviceId) => ({ deviceId, index: w.index })));
  if (rows.length === 0) {
    return;
  }
  await tx.execute(sql`
    update ${deviceDeployments} d set
      wave_index = v.wave_index,
      hold = case when v.wave_index = 0 then null else 'wave' end,
      hold_note = case when v.wave_index = 0 then null else v.note end
    from unnest(
      ${arrayParam(
        rows.map((r) => r.deviceId),
        'int',
      )},
      ${arrayParam(
        rows.map((r) => r.index),
        'int',
      )},
      ${arrayParam(
        rows.map((r) => holdNote(r.index)),
        'text',
      )}
    ) as v(device_id, wave_index, note)
    where d.job_id = ${jobId} and d.device_id = v.device_id`);
}

export async function listWaves(db: Reader, jobId: number): Promise<WaveRow[]> {
  return db
    .select()
    .from(deploymentWaves)
    .where(eq(deploymentWaves.jobId, jobId))
    .orderBy(asc(deploymentWaves.waveIndex));
}

export async function findWave(db: Reader, jobId: number, index: number): Promise<WaveRow | null> {
  const [row] = await db
    .select()
    .from(deploymentWaves)
    .where(and(eq(deploymentWaves.jobId, jobId), eq(deploymentWaves.waveIndex, index)))
    .limit(1);
  return row ?? null;
}

export async function updateWave(
  tx: Executor,
  jobId: number,
  index: number,
  set: Partial<NewWave>,
): Promise<void> {
  await tx
    .update(deploymentWaves)
    .set(set)
    .where(and(eq(deploymentWaves.jobId, jobId), eq(deploymentWaves.waveIndex, index)));
}

const emptyCounts = (): WaveCounts => ({
  total: 0,
  pending: 0,
  running: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
});

/** Every wave's counts by status (by the job and wave index). */
export async function waveStatusCounts(db: Reader, jobId: number): Promise<Map<number, WaveCounts>> {
  const rows = await db
    .select({ wave: deviceDeployments.waveIndex, status: deviceDeployments.status, n: count() })
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), isNotNull(deviceDeployments.waveIndex)))
    .groupBy(deviceDeployments.waveIndex, deviceDeployments.status);
  const out = new Map<number, WaveCounts>();
  for (const r of rows) {
    const c = out.get(r.wave!) ?? emptyCounts();
    c[r.status] += r.n;
    c.total += r.n;
    out.set(r.wave!, c);
  }
  return out;
}

/** One wave's counts by status. */
export async function oneWaveCounts(db: Reader, jobId: number, index: number): Promise<WaveCounts> {
  const rows = await db
    .select({ status: deviceDeployments.status, n: count() })
    .from(deviceDeployments)
    .where(and(eq(deviceDeployments.jobId, jobId), eq(deviceDeployments.waveIndex, index)))
    .groupBy(deviceDeployments.status);
  const c = emptyCounts();
  for (const r of rows) {
    c[r.status] += r.n;
    c.total += r.n;
  }
  return c;
}

/** The job row locked (the lock order: the job, then its device rows). */
export async function lockRolloutJob(tx: Executor, jobId: number): Promise<JobRow | null> {
  const [row] = await tx.select().from(deploymentJobs).where(eq(deploymentJobs.id, jobId)).for('update');
  return row ?? null;
}

/**
 * Moves a running rollout from wave `from` to the next: only one caller (of any instance) gets
 * the row back, so a wave is dispatched once.
 */
export async function claimNextWave(tx: Executor, jobId: number, from: number): Promise<JobRow | null> {
  const [row] = await tx
    .update(deploymentJobs)
    .set({ currentWave: from + 1, updatedAt: sql`now()` })
    .where(
      and(
        eq(deploymentJobs.id, jobId),
        eq(deploymentJobs.currentWave, from),
        eq(deploymentJobs.rolloutState, 'running'),
      ),
    )
    .returning();
  return row ?? null;
}

export async function setRolloutState(
  tx: Executor,
  jobId: number,
  set: Pick<Partial<JobRow>, 'rolloutState' | 'rolloutStateReason' | 'currentWave' | 'steps'>,
  at: Date,
): Promise<JobRow> {
  const [row] = await tx
    .update(deploymentJobs)
    .set({ ...set, ...(set.rolloutState && { rolloutStateAt: at }), updatedAt: sql`now()` })
    .where(eq(deploymentJobs.id, jobId))
    .returning();
  return row!;
}

/** A device row a hold changed, as it is published. */
export type HeldRow = {
  id: number;
  deviceId: number | null;
  deviceGuid: string | null;
  siteId: number | null;
  status: 'pending';
  errorMessage: string | null;
  hold: DeviceHold | null;
};

/**
 * The wave's rows the agent has not taken: pending, and their command (if any) not yet offered
 * to the device (a command offered may already run there: it is left alone).
 */
export async function untakenRows(
  tx: Executor,
  jobId: number,
  index: number,
): Promise<{ id: number; deviceId: number | null; commandId: string | null }[]> {
  const result = await tx.execute(sql`
    select d.id, d.device_id, d.command_id from ${deviceDeployments} d
    left join ${deviceCommands} c on c.id = d.command_id
    where d.job_id = ${jobId} and d.wave_index = ${index} and d.status = 'pending' and d.hold is null
      and (d.command_id is null or c.status = 'pending')
    for update of d`);
  return rowsOf<{ id: number; device_id: number | null; command_id: string | null }>(result).map((r) => ({
    id: Number(r.id),
    deviceId: r.device_id === null ? null : Number(r.device_id),
    commandId: r.command_id,
  }));
}

/** Holds these rows (their withdrawn command forgotten, so the sweep leaves them alone). */
export async function holdRows(
  tx: Executor,
  ids: readonly number[],
  hold: DeviceHold,
  note: string,
): Promise<HeldRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const result = await tx.execute(sql`
    update ${deviceDeployments} set hold = ${hold}, hold_note = ${note}, command_id = null, expires_at = null
    where id = any(${arrayParam(ids, 'int')}) and status = 'pending'
    returning id, device_id, device_guid, site_id, error_message, hold`);
  return rowsOf<{
    id: number;
    device_id: number | null;
    device_guid: string | null;
    site_id: number | null;
    error_message: string | null;
    hold: DeviceHold | null;
  }>(result).map((r) => ({
    id: Number(r.id),
    deviceId: r.device_id === null ? null : Number(r.device_id),
    deviceGuid: r.device_guid,
    siteId: r.site_id === null ? null : Number(r.site_id),
    status: 'pending',
    errorMessage: r.error_message,
    hold: r.hold,
  }));
}

/** Releases the wave's rows held for these reasons; answers them (to be dispatched). */
export async function releaseRows(
  tx: Executor,
  jobId: number,
  index: number,
  holds: readonly DeviceHold[],
): Promise<HeldRow[]> {
  const result = await tx.execute(sql`
    update ${deviceDeployments} set hold = null, hold_note = null
    where job_id = ${jobId} and wave_index = ${index} and status = 'pending'
      and hold = any(${arrayParam(holds, 'text')})
    returning id, device_id, device_guid, site_id, error_message`);
  return rowsOf<{
    id: number;
    device_id: number | null;
    device_guid: string | null;
    site_id: number | null;
    error_message: string | null;
  }>(result).map((r) => ({
    id: Number(r.id),
    deviceId: r.device_id === null ? null : Number(r.device_id),
    deviceGuid: r.device_guid,
    siteId: r.site_id === null ? null : Number(r.site_id),
    status: 'pending',
    errorMessage: r.error_message,
    hold: null,
  }));
}

/** Waves whose soak ended before `now` and whose next wave has not started (the partial index). */
export async function endedSoaks(db: Reader, now: Date, limit: number) {
  return db
    .select({ jobId: deploymentWaves.jobId, waveIndex: deploymentWaves.waveIndex })
    .from(deploymentWaves)
    .where(
      and(
        isNull(deploymentWaves.passedAt),
        isNotNull(deploymentWaves.soakUntil),
        lte(deploymentWaves.soakUntil, now),
      ),
    )
    .limit(limit);
}

/** Jobs whose rollout runs (the sweep looks at their gates again). */
export async function runningRollouts(db: Reader, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: deploymentJobs.id })
    .from(deploymentJobs)
    .where(eq(deploymentJobs.rolloutState, 'running'))
    .limit(limit);
  return rows.map((r) => r.id);
}
