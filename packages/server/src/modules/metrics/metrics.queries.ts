import { and, eq, sql } from 'drizzle-orm';
import { ROLLUP_MINUTES } from '@outpost/contract/metrics';
import {
  deviceMetricMinutes as minutes,
  deviceMetricRollups as rollups,
  deviceMetricVolumes as volumesTable,
  devices,
  metricRollupState as state,
} from '../../db/schema/index';
import type { StoredVolume } from '../../db/schema/index';
import { arrayParam, rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// The metrics tables' only writer (docs/decisions/2026-11-27-metrics-history.md). Percentages are
// stored as hundredths (smallint), times as minutes since the epoch.

/** One minute's sample as stored. */
export type SampleRow = {
  deviceId: number;
  minute: number;
  cpu: number;
  cpuMax: number | null;
  memory: number;
  disk: number | null;
};

export type VolumesRow = { deviceId: number; minute: number; volumes: StoredVolume[] };

/**
 * One statement for a batch (a handful of array parameters whatever its size). A device deleted
 * since its sample arrived is skipped; a minute already stored keeps its first sample.
 */
export async function insertSamples(ex: Executor, rows: SampleRow[]): Promise<number> {
  if (rows.length === 0) {
    return 0;
  }
  const col = <K extends keyof SampleRow>(k: K) => rows.map((r) => r[k]);
  const result = await ex.execute(sql`
    with ins as (
      insert into ${minutes} (device_id, minute, cpu, cpu_max, memory, disk)
      select u.device_id, u.minute, u.cpu, u.cpu_max, u.memory, u.disk
        from unnest(${arrayParam(col('deviceId'), 'int')}, ${arrayParam(col('minute'), 'int')},
                    ${arrayParam(col('cpu'), 'smallint')}, ${arrayParam(col('cpuMax'), 'smallint')},
                    ${arrayParam(col('memory'), 'smallint')}, ${arrayParam(col('disk'), 'smallint')})
             as u(device_id, minute, cpu, cpu_max, memory, disk)
       where exists (select 1 from ${devices} d where d.id = u.device_id)
      on conflict do nothing
      returning 1)
    select count(*)::int as n from ins`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Each device's latest volumes (one row per device in `rows`, the newest minute wins). */
export async function upsertVolumes(ex: Executor, rows: VolumesRow[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await ex.execute(sql`
    insert into ${volumesTable} (device_id, minute, volumes)
    select u.device_id, u.minute, u.volumes
      from unnest(${arrayParam(
        rows.map((r) => r.deviceId),
        'int',
      )}, ${arrayParam(
        rows.map((r) => r.minute),
        'int',
      )}, ${arrayParam(
        rows.map((r) => JSON.stringify(r.volumes)),
        'jsonb',
      )}) as u(device_id, minute, volumes)
     where exists (select 1 from ${devices} d where d.id = u.device_id)
    on conflict (device_id) do update set minute = excluded.minute, volumes = excluded.volumes
     where ${volumesTable.minute} <= excluded.minute`);
}

/**
 * Takes the rollup job's lease when no live one is held: answers the minute up to which buckets
 * are rolled up, or null when another instance holds the lease.
 */
export async function claimRollupLease(ex: Executor, now: Date, leaseUntil: Date): Promise<number | null> {
  await ex.execute(sql`insert into ${state} (id, rolled_until) values (1, 0) on conflict do nothing`);
  const result = await ex.execute(sql`
    update ${state} set lease_until = ${leaseUntil}
     where id = 1 and (lease_until is null or lease_until <= ${now})
    returning rolled_until`);
  const [row] = rowsOf<{ rolled_until: number }>(result);
  return row ? Number(row.rolled_until) : null;
}

export async function releaseRollupLease(ex: Executor, rolledUntil: number | null): Promise<void> {
  await ex.execute(sql`
    update ${state} set lease_until = null,
           rolled_until = greatest(rolled_until, ${rolledUntil ?? 0}) where id = 1`);
}

/** Rolls the minutes of [from, to) into 15-minute buckets; a bucket rolled again is replaced. */
export async function rollUp(ex: Executor, from: number, to: number): Promise<number> {
  const result = await ex.execute(sql`
    with up as (
      insert into ${rollups} (device_id, bucket, cpu, cpu_max, memory, memory_max, disk)
      select device_id, minute - minute % ${ROLLUP_MINUTES} as bucket,
             round(avg(cpu))::smallint, max(coalesce(cpu_max, cpu)),
             round(avg(memory))::smallint, max(memory), max(disk)
        from ${minutes}
       where minute >= ${from} and minute < ${to}
       group by 1, 2
      on conflict (device_id, bucket) do update
         set cpu = excluded.cpu, cpu_max = excluded.cpu_max, memory = excluded.memory,
             memory_max = excluded.memory_max, disk = excluded.disk
      returning 1)
    select count(*)::int as n from up`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Deletes up to `limit` minute rows before `minute`; answers how many went. */
export async function deleteMinutesBefore(ex: Executor, minute: number, limit: number): Promise<number> {
  const result = await ex.execute(sql`
    with gone as (
      delete from ${minutes} where ctid = any(array(
        select ctid from ${minutes} where minute < ${minute} limit ${limit}))
      returning 1)
    select count(*)::int as n from gone`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Deletes up to `limit` rollups of buckets before `bucket`; answers how many went. */
export async function deleteRollupsBefore(ex: Executor, bucket: number, limit: number): Promise<number> {
  const result = await ex.execute(sql`
    with gone as (
      delete from ${rollups} where ctid = any(array(
        select ctid from ${rollups} where bucket < ${bucket} limit ${limit}))
      returning 1)
    select count(*)::int as n from gone`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** The device of this id or guid in the caller's scope. */
export async function findScopedDeviceId(
  ex: Executor,
  scope: Scope,
  idOrGuid: string,
): Promise<number | null> {
  let key;
  if (/^[1-9][0-9]{0,9}$/.test(idOrGuid) && Number(idOrGuid) <= 2_147_483_647) {
    key = eq(devices.id, Number(idOrGuid));
  } else if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrGuid)) {
    key = eq(devices.deviceGuid, idOrGuid.toLowerCase());
  } else {
    return null;
  }
  const [row] = await ex
    .select({ id: devices.id })
    .from(devices)
    .where(and(inScope(devices, scope), key))
    .limit(1);
  return row?.id ?? null;
}

/** A stored point: minute or bucket start, hundredths of a percent. */
export type PointRow = {
  minute: number;
  cpu: number | null;
  cpu_max: number | null;
  memory: number | null;
  memory_max: number | null;
  disk: number | null;
};

/** The device's minute samples from `from` on, oldest first (the primary key's range). */
export async function minutePoints(ex: Executor, deviceId: number, from: number): Promise<PointRow[]> {
  const result = await ex.execute(sql`
    select minute, cpu, cpu_max, memory, null::smallint as memory_max, disk
      from ${minutes} where device_id = ${deviceId} and minute >= ${from}
     order by minute`);
  return rowsOf<PointRow>(result);
}

/**
 * The device's 15-minute points from `from` on, oldest first: its rollups, then the minutes no
 * rollup holds yet, grouped the same way, so a 7-day chart reaches the latest sample.
 */
export async function bucketPoints(ex: Executor, deviceId: number, from: number): Promise<PointRow[]> {
  const result = await ex.execute(sql`
    with rolled as (
      select bucket as minute, cpu, cpu_max, memory, memory_max, disk
        from ${rollups} where device_id = ${deviceId} and bucket >= ${from}),
    tail as (
      select minute - minute % ${ROLLUP_MINUTES} as minute,
             round(avg(cpu))::smallint as cpu, max(coalesce(cpu_max, cpu)) as cpu_max,
             round(avg(memory))::smallint as memory, max(memory) as memory_max, max(disk) as disk
        from ${minutes}
       where device_id = ${deviceId}
         and minute >= greatest(${from}, coalesce((select max(minute) + ${ROLLUP_MINUTES} from rolled), 0))
       group by 1)
    select * from rolled union all select * from tail order by minute`);
  return rowsOf<PointRow>(result);
}

export async function latestVolumes(ex: Executor, deviceId: number): Promise<VolumesRow | null> {
  const [row] = await ex
    .select({ deviceId: volumesTable.deviceId, minute: volumesTable.minute, volumes: volumesTable.volumes })
    .from(volumesTable)
    .where(eq(volumesTable.deviceId, deviceId));
  return row ?? null;
}
