import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DeviceListFilters } from '@outpost/contract/devices';
import { customFields, deviceFieldValues, devices, deviceTags, sites, tags } from '../../db/schema/index';
import { arrayParam, rowsOf, statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';

type Db = Reader & Pick<Executor, 'execute'>;
import type { Scope } from '../../lib/scope';
import { listFilter } from './devices-list.queries';
import { resolveFieldDefault } from './devices-list-sets.queries';

// The device list's CSV export (docs/product/device-sets.md#exports): the list's devices with its
// filters (devices-list.queries.ts listFilter), in its order, a keyset page at a time, with each
// page's tags and custom field values read for that page's devices only.

export type ExportFilters = Omit<DeviceListFilters, 'page' | 'limit'>;
/** Where a page starts: after this device (host: its lowered hostname; null for those without). */
export type ExportKey = { host: string | null; id: number };

const p = sql.placeholder;

/**
 * The ids of a page in list order, with each one's sort key. Key: the list filter's key, then 'h'
 * (devices with a hostname, by lower(hostname), id, after the key) or 'n' (those without one,
 * by id): the list's order is hostname ascending, nulls last.
 */
const pageIdsStatement = statementCache((db, key) => {
  // the condition depends on the key alone (its values are placeholders): any scope and filters do
  const { whereOf } = listFilter(
    { tenantId: 0, siteAccessType: 'all', siteIds: [] },
    {} as Parameters<typeof listFilter>[1],
  );
  const hasHost = key.endsWith('h');
  return db
    .select({ id: devices.id, sortHost: sql<string | null>`lower(${devices.hostname})` })
    .from(devices)
    .where(
      and(
        whereOf(key.slice(0, -1)),
        hasHost
          ? sql`(lower(${devices.hostname}), ${devices.id}) > (${p('afterHost')}, ${p('afterId')})`
          : sql`${devices.hostname} is null and ${devices.id} > ${p('afterId')}`,
      ),
    )
    .orderBy(...(hasHost ? [sql`lower(${devices.hostname}) asc`, asc(devices.id)] : [asc(devices.id)]))
    .limit(p('limit'))
    .prepare(UNNAMED_STATEMENT);
});

const isoText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export type ExportDevice = {
  id: number;
  device_guid: string;
  hostname: string | null;
  status: string;
  os_type: string | null;
  os_version: string | null;
  architecture: string | null;
  ip_address: string | null;
  site_name: string | null;
  serial_number: string | null;
  manufacturer: string | null;
  model: string | null;
  agent_version: string | null;
  last_seen: string | null;
  created_at: string;
  key: ExportKey;
};

/**
 * A page of the list's devices after `after` (null: from the start), with each one's next key.
 * The rows are read by id in a plain statement: mapping a thousand rows of twenty columns
 * through the query builder cost three times the query itself.
 */
export async function exportPage(
  db: Db,
  ctx: Scope,
  f: ExportFilters,
  after: ExportKey | null,
  limit: number,
): Promise<ExportDevice[]> {
  const filter = listFilter(ctx, await resolveFieldDefault(db, ctx.tenantId, f));
  if (filter.seesNothing) {
    return [];
  }
  const phase = after === null || after.host !== null ? 'h' : 'n';
  const ids = await pageIdsStatement(db, filter.key + phase).execute({
    ...filter.values,
    afterHost: after?.host ?? '',
    afterId: after?.id ?? 0,
    limit,
  });
  if (ids.length === 0) {
    return [];
  }
  const rows = rowsOf<Omit<ExportDevice, 'key'>>(
    await db.execute(sql`
      select d.id, d.device_guid, d.hostname, d.status, d.os_type, d.os_version, d.architecture,
        d.ip_address, s.site_name, d.serial_number, d.manufacturer, d.model, d.agent_version,
        ${isoText(sql`d.last_seen`)} as last_seen, ${isoText(sql`d.created_at`)} as created_at
      from ${devices} d left join ${sites} s on s.id = d.site_id
      where d.id = any(${arrayParam(
        ids.map((r) => r.id),
        'int',
      )})`),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [{ ...row, key: { host: r.sortHost, id: r.id } }] : [];
  });
}

/** The tenant's custom fields, in their order: one column each. */
export function exportFields(db: Reader, tenantId: number) {
  return db
    .select({ id: customFields.id, name: customFields.name, defaultValue: customFields.defaultValue })
    .from(customFields)
    .where(eq(customFields.tenantId, tenantId))
    .orderBy(asc(customFields.position), asc(customFields.id));
}

/** Whether the tenant has any tag at all (an export without tags skips reading them per page). */
export async function tenantHasTags(db: Reader, tenantId: number): Promise<boolean> {
  const rows = await db.select({ id: tags.id }).from(tags).where(eq(tags.tenantId, tenantId)).limit(1);
  return rows.length > 0;
}

/** The tag names of these devices, alphabetically, by device. */
export async function exportTags(db: Reader, tenantId: number, deviceIds: number[]) {
  if (deviceIds.length === 0) {
    return new Map<number, string[]>();
  }
  const rows = await db
    .select({ deviceId: deviceTags.deviceId, name: tags.name })
    .from(deviceTags)
    .innerJoin(tags, eq(tags.id, deviceTags.tagId))
    .where(
      and(
        eq(deviceTags.tenantId, tenantId),
        sql`${deviceTags.deviceId} = any(${arrayParam(deviceIds, 'int')})`,
      ),
    )
    .orderBy(sql`lower(${tags.name})`, asc(tags.id));
  const byDevice = new Map<number, string[]>();
  for (const r of rows) {
    byDevice.set(r.deviceId, [...(byDevice.get(r.deviceId) ?? []), r.name]);
  }
  return byDevice;
}

/** The custom field values of these devices: device → field → value text. */
export async function exportFieldValues(db: Reader, tenantId: number, deviceIds: number[]) {
  const byDevice = new Map<number, Map<number, string>>();
  if (deviceIds.length === 0) {
    return byDevice;
  }
  const rows = await db
    .select({
      deviceId: deviceFieldValues.deviceId,
      fieldId: deviceFieldValues.fieldId,
      value: deviceFieldValues.valueText,
    })
    .from(deviceFieldValues)
    .where(
      and(
        eq(deviceFieldValues.tenantId, tenantId),
        sql`${deviceFieldValues.deviceId} = any(${arrayParam(deviceIds, 'int')})`,
      ),
    );
  for (const r of rows) {
    const values = byDevice.get(r.deviceId) ?? new Map<number, string>();
    values.set(r.fieldId, r.value);
    byDevice.set(r.deviceId, values);
  }
  return byDevice;
}
