import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { devices, deviceSoftware, softwareVersions } from '../../db/schema/index';
import { arrayParam, rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';

// The fleet software counts (software_versions, docs/product/device-sets.md#fleet-software): how
// many devices of each site hold each title and version. Written only here, in the transaction
// of the change that moves device_software rows or a device's site, so the counts are always
// those of the committed rows (docs/decisions/2026-11-26-fleet-software-counts.md). Keys are
// written in one order (site, then name and version byte-wise, `collate "C"`, whatever the
// database's collation) so two transactions never wait on each other in a circle.

export type SoftwareCountChange = { name: string; version: string; publisher: string | null; delta: number };

/** site_key of a device's site: 0 for a device without one. */
export const siteKeyOf = (siteId: number | null) => siteId ?? 0;

type KeyRow = { site_key: number; name: string; version: string; device_count: number };

const upsertTail = sql`
  on conflict (tenant_id, site_key, name, version) do update set
    device_count = ${softwareVersions}.device_count + excluded.device_count,
    publisher = case when excluded.device_count > 0
      then coalesce(excluded.publisher, ${softwareVersions}.publisher) else ${softwareVersions}.publisher end
  returning site_key, name, version, device_count`;

/** Drops the keys an upsert left at 0 (nothing holds them any more). */
async function dropEmpty(tx: Executor, tenantId: number, rows: KeyRow[]): Promise<void> {
  const empty = rows.filter((r) => r.device_count <= 0);
  if (empty.length === 0) {
    return;
  }
  await tx.execute(sql`
    delete from ${softwareVersions}
    where tenant_id = ${tenantId} and device_count <= 0
      and (site_key, name, version) in (select * from unnest(
        ${arrayParam(
          empty.map((r) => r.site_key),
          'int',
        )}, ${arrayParam(
          empty.map((r) => r.name),
          'text',
        )}, ${arrayParam(
          empty.map((r) => r.version),
          'text',
        )}))`);
}

/** Adds each change's delta to its key's count at one site (a device's inventory diff). */
export async function adjustSoftwareCounts(
  tx: Executor,
  tenantId: number,
  siteKey: number,
  changes: SoftwareCountChange[],
): Promise<void> {
  if (changes.length === 0) {
    return;
  }
  const col = <T>(pick: (c: SoftwareCountChange) => T, type: string) => arrayParam(changes.map(pick), type);
  const result = await tx.execute(sql`
    insert into ${softwareVersions} (tenant_id, site_key, name, version, publisher, device_count)
    select ${tenantId}, ${siteKey}, c.name, c.version, c.publisher, c.delta
    from unnest(${col((c) => c.name, 'text')}, ${col((c) => c.version, 'text')},
      ${col((c) => c.publisher, 'text')}, ${col((c) => c.delta, 'int')}) as c(name, version, publisher, delta)
    order by c.name collate "C", c.version collate "C"
    ${upsertTail}`);
  await dropEmpty(tx, tenantId, rowsOf<KeyRow>(result));
}

/**
 * Adds (+1) or takes away (-1) the whole software of these devices at their current sites: before
 * devices are deleted, and around a change of a device's site. The devices are locked first, so
 * an inventory of one of them (which locks its row too) waits or is waited for.
 */
export async function shiftDevicesSoftware(
  tx: Executor,
  tenantId: number,
  deviceIds: number[],
  sign: 1 | -1,
): Promise<void> {
  if (deviceIds.length === 0) {
    return;
  }
  const ids = arrayParam(deviceIds, 'int');
  await tx.execute(
    sql`select id from ${devices} where tenant_id = ${tenantId} and id = any(${ids}) order by id for update`,
  );
  const result = await tx.execute(sql`
    insert into ${softwareVersions} (tenant_id, site_key, name, version, publisher, device_count)
    select s.tenant_id, coalesce(d.site_id, 0), s.name, s.version, max(s.publisher), ${sign} * count(*)::int
    from ${deviceSoftware} s join ${devices} d on d.id = s.device_id
    where d.tenant_id = ${tenantId} and d.id = any(${ids})
    group by 1, 2, 3, 4
    order by coalesce(d.site_id, 0), s.name collate "C", s.version collate "C"
    ${upsertTail}`);
  await dropEmpty(tx, tenantId, rowsOf<KeyRow>(result));
}

/** The site a device is in now (locked: its site or its software may be about to change). */
export async function lockDeviceSite(
  tx: Executor,
  deviceId: number,
): Promise<{ tenantId: number; siteId: number | null } | null> {
  const result = await tx.execute(
    sql`select tenant_id, site_id from ${devices} where id = ${deviceId} for update`,
  );
  const [row] = rowsOf<{ tenant_id: number; site_id: number | null }>(result);
  return row ? { tenantId: row.tenant_id, siteId: row.site_id } : null;
}

/**
 * The counts of deleted sites move to "no site" (0): their devices stay, unassigned (the
 * foreign key sets their site to null in the same transaction).
 */
export async function foldSitesIntoNone(tx: Executor, tenantId: number, siteIds: number[]): Promise<void> {
  const keys = siteIds.filter((id) => id > 0);
  if (keys.length === 0) {
    return;
  }
  const gone: SQL = sql`
    delete from ${softwareVersions}
    where tenant_id = ${tenantId} and site_key = any(${arrayParam(keys, 'int')})
    returning name, version, publisher, device_count`;
  await tx.execute(sql`
    with gone as (${gone})
    insert into ${softwareVersions} (tenant_id, site_key, name, version, publisher, device_count)
    select ${tenantId}, 0, name, version, max(publisher), sum(device_count)::int
    from gone group by name, version order by name collate "C", version collate "C"
    ${upsertTail}`);
}
