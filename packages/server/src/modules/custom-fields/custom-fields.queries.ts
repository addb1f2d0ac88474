import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { CustomField } from '@outpost/contract/custom-fields';
import { customFields, deviceFieldValues, devices } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Custom field definitions and device values (docs/product/device-sets.md#custom-fields). The
// only writer of custom_fields and device_field_values; every statement is scoped with lib/scope.

export type FieldRow = typeof customFields.$inferSelect;
export type FieldValues = Pick<FieldRow, 'name' | 'options' | 'required' | 'defaultValue'>;
export type ScopedDeviceRef = {
  id: number;
  deviceGuid: string;
  hostname: string | null;
  siteId: number | null;
};
const INSERT_CHUNK = 5000;

export type ValueWrite = { fieldId: number; valueText: string; valueNumber: number | null };

export function toCustomField(row: FieldRow): CustomField {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    field_type: row.fieldType,
    options: row.options,
    required: row.required,
    default_value: row.defaultValue,
    position: row.position,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The tenant's fields in their order. */
export function listFields(db: Reader, scope: TenantScope): Promise<FieldRow[]> {
  return db
    .select()
    .from(customFields)
    .where(inTenant(customFields, scope))
    .orderBy(asc(customFields.position), asc(customFields.id));
}

/** One field of the tenant; `lock` holds its row until the transaction ends. */
export async function findField(
  db: Executor,
  scope: TenantScope,
  id: number,
  opts: { lock?: boolean } = {},
): Promise<FieldRow | null> {
  const query = db
    .select()
    .from(customFields)
    .where(and(inTenant(customFields, scope), eq(customFields.id, id)))
    .limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Which of these keys name fields of the tenant. */
export async function findFieldKeys(db: Reader, scope: TenantScope, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ key: customFields.key })
    .from(customFields)
    .where(and(inTenant(customFields, scope), inArray(customFields.key, keys)));
  return new Set(rows.map((r) => r.key));
}

export async function countFields(db: Reader, scope: TenantScope): Promise<number> {
  const [row] = await db.select({ n: count() }).from(customFields).where(inTenant(customFields, scope));
  return row?.n ?? 0;
}

/** Inserts a field after the others; null when the key is taken. */
export async function insertField(
  tx: Executor,
  scope: TenantScope,
  values: Pick<FieldRow, 'key' | 'name' | 'fieldType' | 'options' | 'required' | 'defaultValue'>,
): Promise<FieldRow | null> {
  const nextPosition = sql<number>`(select coalesce(max(${customFields.position}), -1) + 1 from ${customFields} where ${customFields.tenantId} = ${scope.tenantId})`;
  const [row] = await tx
    .insert(customFields)
    .values({ ...values, tenantId: scope.tenantId, position: nextPosition })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function updateField(tx: Executor, scope: TenantScope, id: number, patch: Partial<FieldValues>) {
  await tx
    .update(customFields)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(inTenant(customFields, scope), eq(customFields.id, id)));
}

/** Deletes a field; its device values go with it (foreign key). Answers the devices that had one. */
export async function deleteField(tx: Executor, scope: TenantScope, id: number): Promise<number[]> {
  const holders = await tx
    .select({ deviceId: deviceFieldValues.deviceId })
    .from(deviceFieldValues)
    .where(and(inTenant(deviceFieldValues, scope), eq(deviceFieldValues.fieldId, id)));
  await tx.delete(customFields).where(and(inTenant(customFields, scope), eq(customFields.id, id)));
  return holders.map((h) => h.deviceId);
}

/** Sets each field's position to its index in `ids` (all of the tenant's fields). */
export async function setPositions(tx: Executor, scope: TenantScope, ids: number[]) {
  for (const [position, id] of ids.entries()) {
    await tx
      .update(customFields)
      .set({ position })
      .where(and(inTenant(customFields, scope), eq(customFields.id, id)));
  }
}

/** How many devices hold each of these values of a field. */
export async function countValuesUsing(
  db: Reader,
  scope: TenantScope,
  fieldId: number,
  values: string[],
): Promise<Map<string, number>> {
  if (values.length === 0) {
    return new Map();
  }
  const rows = await db
    .select({ value: deviceFieldValues.valueText, n: count() })
    .from(deviceFieldValues)
    .where(
      and(
        inTenant(deviceFieldValues, scope),
        eq(deviceFieldValues.fieldId, fieldId),
        inArray(deviceFieldValues.valueText, values),
      ),
    )
    .groupBy(deviceFieldValues.valueText);
  return new Map(rows.map((r) => [r.value, r.n]));
}

const deviceRef = {
  id: devices.id,
  deviceGuid: devices.deviceGuid,
  hostname: devices.hostname,
  siteId: devices.siteId,
};

/** A device in the caller's scope by id or guid (the same keys as /devices/{id}); null when not visible. */
export async function findScopedDeviceRef(
  db: Reader,
  scope: Scope,
  idOrGuid: string,
): Promise<ScopedDeviceRef | null> {
  let key;
  if (/^[1-9][0-9]{0,9}$/.test(idOrGuid) && Number(idOrGuid) <= 2_147_483_647) {
    key = eq(devices.id, Number(idOrGuid));
  } else if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrGuid)) {
    key = eq(devices.deviceGuid, idOrGuid.toLowerCase());
  } else {
    return null;
  }
  const [row] = await db
    .select(deviceRef)
    .from(devices)
    .where(and(inScope(devices, scope), key))
    .limit(1);
  return row ?? null;
}

/** The devices of these ids in the caller's scope. */
export function findScopedDeviceRefs(db: Reader, scope: Scope, ids: number[]): Promise<ScopedDeviceRef[]> {
  if (ids.length === 0) {
    return Promise.resolve([]);
  }
  return db
    .select(deviceRef)
    .from(devices)
    .where(and(inScope(devices, scope), inArray(devices.id, ids)))
    .orderBy(asc(devices.id));
}

/** One device's stored values (no defaults). */
export function deviceValues(db: Reader, scope: TenantScope, deviceId: number) {
  return db
    .select({
      fieldId: deviceFieldValues.fieldId,
      valueText: deviceFieldValues.valueText,
      updatedAt: deviceFieldValues.updatedAt,
    })
    .from(deviceFieldValues)
    .where(and(inTenant(deviceFieldValues, scope), eq(deviceFieldValues.deviceId, deviceId)));
}

/** The stored values of these fields on these devices (the "before" of an audit entry). */
export function valuesOf(db: Reader, scope: TenantScope, deviceIds: number[], fieldIds: number[]) {
  if (deviceIds.length === 0 || fieldIds.length === 0) {
    return Promise.resolve([]);
  }
  return db
    .select({
      deviceId: deviceFieldValues.deviceId,
      fieldId: deviceFieldValues.fieldId,
      valueText: deviceFieldValues.valueText,
    })
    .from(deviceFieldValues)
    .where(
      and(
        inTenant(deviceFieldValues, scope),
        inArray(deviceFieldValues.deviceId, deviceIds),
        inArray(deviceFieldValues.fieldId, fieldIds),
      ),
    );
}

/** Sets values on devices (insert or replace) and clears others; one statement each. */
export async function writeValues(
  tx: Executor,
  scope: TenantScope,
  deviceIds: number[],
  sets: ValueWrite[],
  clears: number[],
) {
  if (deviceIds.length === 0) {
    return;
  }
  const now = new Date();
  if (sets.length > 0) {
    const rows = deviceIds.flatMap((deviceId) =>
      sets.map((s) => ({ tenantId: scope.tenantId, deviceId, ...s, updatedAt: now })),
    );
    // at most INSERT_CHUNK rows a statement: PostgreSQL takes 65,535 parameters
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await tx
        .insert(deviceFieldValues)
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflictDoUpdate({
          target: [deviceFieldValues.deviceId, deviceFieldValues.fieldId],
          set: {
            valueText: sql`excluded.value_text`,
            valueNumber: sql`excluded.value_number`,
            updatedAt: now,
          },
        });
    }
  }
  if (clears.length > 0) {
    await tx
      .delete(deviceFieldValues)
      .where(
        and(
          inTenant(deviceFieldValues, scope),
          inArray(deviceFieldValues.deviceId, deviceIds),
          inArray(deviceFieldValues.fieldId, clears),
        ),
      );
  }
}
