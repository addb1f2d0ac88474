import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DeviceListFilters } from '@outpost/contract/devices';
import { customFields, deviceFieldValues, devices, deviceTags, sites, tags } from '../../db/schema/index';
import { statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Reader } from '../../lib/db';
import type { Scope } from '../../lib/scope';
import { listFilter } from './devices-list.queries';
import { deviceListColumns, toListItem } from './devices.queries';

// The device list's CSV export (docs/product/device-sets.md#exports): the list's devices with its
// filters (devices-list.queries.ts listFilter), in its order, a keyset page at a time, with each
// page's tags and custom field values read for that page's devices only.

export type ExportFilters = Omit<DeviceListFilters, 'page' | 'limit'>;
/** Where a page starts: after this device (host: its lowered hostname; null for those without). */
export type ExportKey = { host: string | null; id: number };

const p = sql.placeholder;

/**
 * Key: the list filter's key, then 'h' (devices with a hostname, by lower(hostname), id, after
 * the key) or 'n' (those without one, by id): the list's order is hostname ascending, nulls last.
 */
const pageStatement = statementCache((db, key) => {
  // the condition depends on the key alone (its values are placeholders): any scope and filters do
  const { whereOf } = listFilter(
    { tenantId: 0, siteAccessType: 'all', siteIds: [] },
    {} as Parameters<typeof listFilter>[1],
  );
  const hasHost = key.endsWith('h');
  const order = hasHost ? [sql`lower(${devices.hostname}) asc`, asc(devices.id)] : [asc(devices.id)];
  const pageIds = db
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(
        whereOf(key.slice(0, -1)),
        hasHost
          ? sql`(lower(${devices.hostname}), ${devices.id}) > (${p('afterHost')}, ${p('afterId')})`
          : sql`${devices.hostname} is null and ${devices.id} > ${p('afterId')}`,
      ),
    )
    .orderBy(...order)
    .limit(p('limit'))
    .as('page_ids');
  return db
    .select({ ...deviceListColumns, sortHost: sql<string | null>`lower(${devices.hostname})` })
    .from(devices)
    .innerJoin(pageIds, eq(pageIds.id, devices.id))
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .orderBy(...order)
    .prepare(UNNAMED_STATEMENT);
});

/** A page of the list's devices after `after` (null: from the start), with each one's next key. */
export async function exportPage(
  db: Reader,
  ctx: Scope,
  f: ExportFilters,
  after: ExportKey | null,
  limit: number,
) {
  const filter = listFilter(ctx, f);
  if (filter.seesNothing) {
    return [];
  }
  const phase = after === null || after.host !== null ? 'h' : 'n';
  const rows = await pageStatement(db, filter.key + phase).execute({
    ...filter.values,
    afterHost: after?.host ?? '',
    afterId: after?.id ?? 0,
    limit,
  });
  return rows.map((r) => ({ ...toListItem(r), key: { host: r.sortHost, id: r.id } as ExportKey }));
}

/** The tenant's custom fields, in their order: one column each. */
export function exportFields(db: Reader, tenantId: number) {
  return db
    .select({ id: customFields.id, name: customFields.name, defaultValue: customFields.defaultValue })
    .from(customFields)
    .where(eq(customFields.tenantId, tenantId))
    .orderBy(asc(customFields.position), asc(customFields.id));
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
    .where(and(eq(deviceTags.tenantId, tenantId), inArray(deviceTags.deviceId, deviceIds)))
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
    .where(and(eq(deviceFieldValues.tenantId, tenantId), inArray(deviceFieldValues.deviceId, deviceIds)));
  for (const r of rows) {
    const values = byDevice.get(r.deviceId) ?? new Map<number, string>();
    values.set(r.fieldId, r.value);
    byDevice.set(r.deviceId, values);
  }
  return byDevice;
}
