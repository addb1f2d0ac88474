import { canonicalValue, customFieldMessages as messages } from '@outpost/contract/custom-fields';
import type { DeviceFieldValue, FieldValuesBody } from '@outpost/contract/custom-fields';
import type { AuditActor } from '../../lib/audit';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { badRequest } from '../../lib/errors';
import type { TenantScope } from '../../lib/scope';
import { valuesOf, writeValues } from './custom-fields.queries';
import type { FieldRow, ScopedDeviceRef, ValueWrite } from './custom-fields.queries';

// Device values of custom fields (docs/product/device-sets.md#custom-fields): a body of values by
// key checked against the tenant's fields, written, and recorded in one audit entry.

/** A body's values resolved against the fields: what to set and what to clear. */
export type ValuePlan = { sets: (ValueWrite & { field: FieldRow })[]; clears: FieldRow[] };

/** Resolves `{key: value|null}` against the fields; 400 with the product's message on any problem. */
export function planValues(fields: FieldRow[], values: FieldValuesBody): ValuePlan {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const plan: ValuePlan = { sets: [], clears: [] };
  for (const [key, value] of Object.entries(values)) {
    const field = byKey.get(key);
    if (!field) {
      throw badRequest(messages.unknownField(key), 'CUSTOM_FIELD_UNKNOWN');
    }
    if (value === null) {
      if (field.required) {
        throw badRequest(messages.requiredCannotClear(field.name), 'CUSTOM_FIELD_REQUIRED');
      }
      plan.clears.push(field);
      continue;
    }
    const canonical = canonicalValue({ field_type: field.fieldType, options: field.options }, value);
    if (!canonical.ok) {
      throw badRequest(messages.valueInvalid(field.name, canonical.reason), 'CUSTOM_FIELD_VALUE_INVALID');
    }
    plan.sets.push({ field, fieldId: field.id, valueText: canonical.text, valueNumber: canonical.number });
  }
  return plan;
}

const deviceName = (d: ScopedDeviceRef) => d.hostname ?? d.deviceGuid;

/**
 * Writes a plan on devices with one audit entry (a bulk change is one entry with its count).
 * `source` names what set them when no person did (a deployment step).
 */
export async function applyPlan(
  tx: Executor,
  actor: AuditActor,
  devices: ScopedDeviceRef[],
  plan: ValuePlan,
  source?: string,
): Promise<void> {
  const scope: TenantScope = { tenantId: actor.tenantId };
  const deviceIds = devices.map((d) => d.id);
  const touched = [...plan.sets.map((s) => s.field), ...plan.clears];
  const before = await valuesOf(
    tx,
    scope,
    deviceIds,
    touched.map((f) => f.id),
  );
  await writeValues(
    tx,
    scope,
    deviceIds,
    plan.sets.map(({ fieldId, valueText, valueNumber }) => ({ fieldId, valueText, valueNumber })),
    plan.clears.map((f) => f.id),
  );
  const keyOf = new Map(touched.map((f) => [f.id, f.key]));
  const newValues = Object.fromEntries([
    ...plan.sets.map((s) => [s.field.key, s.valueText] as const),
    ...plan.clears.map((f) => [f.key, null] as const),
  ]);
  const names = touched.map((f) => f.name).join(', ');
  const one = devices.length === 1 ? devices[0] : undefined;
  const oldValues =
    one !== undefined
      ? Object.fromEntries(
          touched.map((f) => [f.key, before.find((b) => b.fieldId === f.id)?.valueText ?? null]),
        )
      : before.map((b) => ({ device_id: b.deviceId, key: keyOf.get(b.fieldId), value: b.valueText }));
  await writeAudit(tx, actor, {
    action: devices.length === 1 ? 'Set Custom Fields' : 'Bulk Set Custom Fields',
    resourceType: 'device',
    resourceId: one?.id ?? null,
    details:
      (one ? `Set ${names} on ${deviceName(one)}` : `Set ${names} on ${devices.length} devices`) +
      (source ? ` (${source})` : ''),
    oldValues,
    newValues: one ? newValues : { values: newValues, device_count: devices.length, device_ids: deviceIds },
    siteIds: devices.map((d) => d.siteId),
  });
}

/** Every field of the tenant for one device: its value, else the default (is_default), else null. */
export function fieldsOfDevice(
  fields: FieldRow[],
  stored: { fieldId: number; valueText: string; updatedAt: Date }[],
): DeviceFieldValue[] {
  const byField = new Map(stored.map((s) => [s.fieldId, s]));
  return fields.map((f) => {
    const own = byField.get(f.id);
    return {
      field_id: f.id,
      key: f.key,
      name: f.name,
      field_type: f.fieldType,
      options: f.options,
      required: f.required,
      value: own?.valueText ?? f.defaultValue,
      is_default: own === undefined && f.defaultValue !== null,
      updated_at: own?.updatedAt.toISOString() ?? null,
    };
  });
}
