import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { DeviceTag, TagColor } from '@outpost/contract/tags';
import { customFields, deviceFieldValues, deviceTags, tags } from '../../db/schema/index';
import type { Reader } from '../../lib/db';

// What a device list page shows beside each row (docs/product/device-sets.md#device-list-filters):
// its tags, and the custom fields asked for as columns. One statement each for the page's device
// ids (the rows are already in the caller's scope), never one per row.

/** The tags of these devices, by device id, each device's in name order. */
export async function tagsOfDevices(
  db: Reader,
  tenantId: number,
  deviceIds: number[],
): Promise<Map<number, DeviceTag[]>> {
  const byDevice = new Map<number, DeviceTag[]>();
  if (deviceIds.length === 0) {
    return byDevice;
  }
  const rows = await db
    .select({ deviceId: deviceTags.deviceId, id: tags.id, name: tags.name, color: tags.color })
    .from(deviceTags)
    .innerJoin(tags, eq(tags.id, deviceTags.tagId))
    .where(and(eq(deviceTags.tenantId, tenantId), inArray(deviceTags.deviceId, deviceIds)))
    .orderBy(sql`lower(${tags.name})`, asc(tags.id));
  for (const r of rows) {
    const list = byDevice.get(r.deviceId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color as TagColor });
    byDevice.set(r.deviceId, list);
  }
  return byDevice;
}

/**
 * The values of these custom fields (by key) on these devices: a device without a value shows
 * the field's default, or null. A key no field has is null on every row.
 */
export async function fieldsOfDevices(
  db: Reader,
  tenantId: number,
  deviceIds: number[],
  keys: string[],
): Promise<Map<number, Record<string, string | null>>> {
  const byDevice = new Map<number, Record<string, string | null>>();
  if (deviceIds.length === 0 || keys.length === 0) {
    return byDevice;
  }
  const defs = await db
    .select({ id: customFields.id, key: customFields.key, defaultValue: customFields.defaultValue })
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenantId), inArray(customFields.key, keys)));
  const base: Record<string, string | null> = Object.fromEntries(keys.map((k) => [k, null]));
  for (const d of defs) {
    base[d.key] = d.defaultValue;
  }
  const values =
    defs.length === 0
      ? []
      : await db
          .select({
            deviceId: deviceFieldValues.deviceId,
            fieldId: deviceFieldValues.fieldId,
            value: deviceFieldValues.valueText,
          })
          .from(deviceFieldValues)
          .where(
            and(
              eq(deviceFieldValues.tenantId, tenantId),
              inArray(deviceFieldValues.deviceId, deviceIds),
              inArray(
                deviceFieldValues.fieldId,
                defs.map((d) => d.id),
              ),
            ),
          );
  const keyOf = new Map(defs.map((d) => [d.id, d.key] as const));
  for (const id of deviceIds) {
    byDevice.set(id, { ...base });
  }
  for (const v of values) {
    const row = byDevice.get(v.deviceId);
    const key = keyOf.get(v.fieldId);
    if (row && key !== undefined) {
      row[key] = v.value;
    }
  }
  return byDevice;
}

/** The page's rows with their tags and, when asked, their custom fields. */
export async function withTagsAndFields(
  db: Reader,
  tenantId: number,
  rows: DeviceListItem[],
  fieldKeys: string[] | undefined,
): Promise<DeviceListItem[]> {
  const ids = rows.map((r) => r.id);
  const [tagMap, fieldMap] = await Promise.all([
    tagsOfDevices(db, tenantId, ids),
    fieldKeys?.length ? fieldsOfDevices(db, tenantId, ids, fieldKeys) : undefined,
  ]);
  return rows.map((r) => ({
    ...r,
    tags: tagMap.get(r.id) ?? [],
    ...(fieldMap ? { fields: fieldMap.get(r.id) ?? {} } : {}),
  }));
}
