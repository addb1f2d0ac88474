import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type {
  FleetSoftwareFilters,
  FleetSoftwareTitle,
  SoftwareDevice,
  SoftwareDevicesFilters,
} from '@outpost/contract/software';
import { devices, deviceSoftware, sites, softwareVersions } from '../../db/schema/index';
import { arrayParam, rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inScope, isSiteLimited } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// The fleet's software (docs/product/device-sets.md#fleet-software), read only: the titles and
// their versions from the counts the devices module keeps (software_versions, one row per site,
// title and version), the devices of a title from device_software. A site-limited caller sums
// their sites' rows only (devices without a site are no site of theirs).

type Db = Pick<Executor, 'execute'>;

/** The caller's rows of software_versions. */
function countsInScope(scope: Scope): SQL {
  if (!isSiteLimited(scope)) {
    return sql`v.tenant_id = ${scope.tenantId}`;
  }
  return sql`v.tenant_id = ${scope.tenantId} and v.site_key = any(${arrayParam(scope.siteIds, 'int')})`;
}

const likeTerm = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function titleWhere(scope: Scope, search: string | undefined): SQL {
  const term = search ? likeTerm(search) : null;
  return term
    ? sql`${countsInScope(scope)} and (lower(v.name) like ${term} or lower(coalesce(v.publisher, '')) like ${term})`
    : countsInScope(scope);
}

type TitleRow = { name: string; publisher: string | null; n: number; total: number };
type VersionRow = { name: string; version: string; n: number };

/** A page of titles with their versions' counts, and how many titles there are. */
export async function listTitles(
  db: Db,
  scope: Scope,
  f: FleetSoftwareFilters,
): Promise<{ rows: FleetSoftwareTitle[]; total: number }> {
  const order = f.sort === 'devices' ? sql`n desc, lower(name), name` : sql`lower(name), name`;
  const titles = rowsOf<TitleRow>(
    await db.execute(sql`
      select v.name, max(v.publisher) as publisher, sum(v.device_count)::int as n, count(*) over ()::int as total
      from ${softwareVersions} v
      where ${titleWhere(scope, f.search)}
      group by v.name having sum(v.device_count) > 0
      order by ${order}
      limit ${f.limit} offset ${(f.page - 1) * f.limit}`),
  );
  if (titles.length === 0) {
    return { rows: [], total: f.page > 1 ? await countTitles(db, scope, f.search) : 0 };
  }
  const versions = rowsOf<VersionRow>(
    await db.execute(sql`
      select v.name, v.version, sum(v.device_count)::int as n
      from ${softwareVersions} v
      where ${countsInScope(scope)} and v.name = any(${arrayParam(
        titles.map((t) => t.name),
        'text',
      )})
      group by v.name, v.version having sum(v.device_count) > 0
      order by v.name, n desc, v.version`),
  );
  const byName = new Map<string, { version: string; device_count: number }[]>();
  for (const v of versions) {
    const list = byName.get(v.name) ?? [];
    list.push({ version: v.version, device_count: v.n });
    byName.set(v.name, list);
  }
  return {
    rows: titles.map((t) => ({
      name: t.name,
      publisher: t.publisher,
      device_count: t.n,
      versions: byName.get(t.name) ?? [],
    })),
    total: titles[0]?.total ?? 0,
  };
}

async function countTitles(db: Db, scope: Scope, search: string | undefined): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from (
        select 1 from ${softwareVersions} v where ${titleWhere(scope, search)}
        group by v.name having sum(v.device_count) > 0) t`),
  );
  return row?.n ?? 0;
}

export type VersionCountRow = { name: string; version: string; publisher: string | null; n: number };

/**
 * The export's rows: every title and version in (name, version) order, a page after `after` (the
 * last key of the previous page; keyset paging, so a long export holds no cursor open).
 */
export async function versionCountsAfter(
  db: Db,
  scope: Scope,
  search: string | undefined,
  after: { name: string; version: string } | null,
  limit: number,
): Promise<VersionCountRow[]> {
  const from = after ? sql`and (v.name, v.version) > (${after.name}, ${after.version})` : sql``;
  return rowsOf<VersionCountRow>(
    await db.execute(sql`
      select v.name, v.version, max(v.publisher) as publisher, sum(v.device_count)::int as n
      from ${softwareVersions} v
      where ${titleWhere(scope, search)} ${from}
      group by v.name, v.version having sum(v.device_count) > 0
      order by v.name, v.version
      limit ${limit}`),
  );
}

/** How many devices hold the title (or that version of it) in scope, from the counts. */
export async function countTitleDevices(db: Db, scope: Scope, f: SoftwareDevicesFilters): Promise<number> {
  const version = f.version === undefined ? sql`` : sql`and v.version = ${f.version}`;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select coalesce(sum(v.device_count), 0)::int as n from ${softwareVersions} v
      where ${countsInScope(scope)} and v.name = ${f.name} ${version}`),
  );
  return row?.n ?? 0;
}

type DeviceRow = {
  ds_id: number;
  id: number;
  device_guid: string;
  hostname: string | null;
  status: SoftwareDevice['status'];
  os_type: string | null;
  site_name: string | null;
  version: string;
  publisher: string | null;
};

const toSoftwareDevice = (r: DeviceRow): SoftwareDevice => ({
  id: r.id,
  device_guid: r.device_guid,
  hostname: r.hostname,
  status: r.status,
  os_type: r.os_type,
  site_name: r.site_name,
  version: r.version,
  publisher: r.publisher,
});

function titleDevicesSelect(scope: Scope, f: Pick<SoftwareDevicesFilters, 'name' | 'version'>): SQL {
  const version = f.version === undefined ? sql`` : sql`and s.version = ${f.version}`;
  // devices keeps its own name: the scope condition (lib/scope) names its columns in full
  return sql`
    select s.id as ds_id, ${devices.id} as id, ${devices.deviceGuid} as device_guid, ${devices.hostname} as hostname,
      ${devices.status} as status, ${devices.osType} as os_type, st.site_name, s.version, s.publisher
    from ${deviceSoftware} s
    join ${devices} on ${devices.id} = s.device_id
    left join ${sites} st on st.id = ${devices.siteId}
    where s.tenant_id = ${scope.tenantId} and lower(s.name) = lower(${f.name}) and s.name = ${f.name} ${version}
      and ${inScope(devices, scope)}`;
}

/** A page of the devices holding a title (or one version of it), in hostname order. */
export async function listTitleDevices(
  db: Db,
  scope: Scope,
  f: SoftwareDevicesFilters,
): Promise<SoftwareDevice[]> {
  const rows = rowsOf<DeviceRow>(
    await db.execute(sql`
      ${titleDevicesSelect(scope, f)}
      order by lower(${devices.hostname}) nulls last, ${devices.id}, s.version
      limit ${f.limit} offset ${(f.page - 1) * f.limit}`),
  );
  return rows.map(toSoftwareDevice);
}

/** The export's rows of a title's devices, in device_software order after `afterId` (keyset). */
export async function titleDevicesAfter(
  db: Db,
  scope: Scope,
  f: Pick<SoftwareDevicesFilters, 'name' | 'version'>,
  afterId: number,
  limit: number,
): Promise<(SoftwareDevice & { rowId: number })[]> {
  const rows = rowsOf<DeviceRow>(
    await db.execute(sql`
      ${titleDevicesSelect(scope, f)} and s.id > ${afterId}
      order by s.id
      limit ${limit}`),
  );
  return rows.map((r) => ({ ...toSoftwareDevice(r), rowId: r.ds_id }));
}
