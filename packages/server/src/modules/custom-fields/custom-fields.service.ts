import {
  canonicalValue,
  checkDefinition,
  CUSTOM_FIELD_TEXT_MAX,
  customFieldMessages as messages,
  MAX_CUSTOM_FIELDS,
} from '@outpost/contract/custom-fields';
import type {
  BulkFieldValuesBody,
  BulkFieldValuesResponse,
  CustomField,
  CustomFieldCreateInput,
  CustomFieldReorderBody,
  CustomFieldUpdateBody,
  DeleteCustomFieldResponse,
  DeviceFieldsResponse,
  FieldValuesBody,
} from '@outpost/contract/custom-fields';
import { deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { systemActor, writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { tenantOnly } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';
import {
  countFields,
  countValuesUsing,
  deleteField,
  deviceValues,
  findField,
  findFieldKeys,
  findScopedDeviceRef,
  findScopedDeviceRefs,
  insertField,
  listFields,
  setPositions,
  toCustomField,
  updateField,
} from './custom-fields.queries';
import type { FieldRow } from './custom-fields.queries';
import { applyPlan, fieldsOfDevice, planValues } from './field-values';

// Custom fields (docs/product/device-sets.md#custom-fields). Every member reads the definitions;
// administrators change them. Device values follow device access: any member, on the devices of
// their sites. After values change the groups module is told (onDevicesChanged) so dynamic groups
// follow.

export type CustomFieldsServiceDeps = {
  db: Db;
  /** told which devices' values changed, after the commit (dynamic groups re-evaluate) */
  onDevicesChanged?: (tenantId: number, deviceIds: number[]) => void | Promise<void>;
};

/** What a deployment step's output became (docs/product/device-sets.md#custom-fields, step output). */
export type StoreOutputResult = { stored: true; value: string } | { stored: false; note: string };

const auditDefinition = (f: Pick<FieldRow, 'key' | 'name' | 'fieldType' | 'options' | 'required' | 'defaultValue'>) => ({
  key: f.key,
  name: f.name,
  field_type: f.fieldType,
  options: f.options,
  required: f.required,
  default_value: f.defaultValue,
});

/** What packages read inside their own transaction: which field keys a step may name. */
export const customFieldLookup = {
  knownKeys: (ex: Executor, scope: TenantScope, keys: string[]): Promise<Set<string>> =>
    findFieldKeys(ex, scope, keys),
};

export function createCustomFieldsService({ db, onDevicesChanged }: CustomFieldsServiceDeps) {
  async function loadField(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<FieldRow> {
    const row = await findField(ex, ctx, id, { lock });
    if (!row) {
      throw notFound(messages.fieldNotFound, 'CUSTOM_FIELD_NOT_FOUND');
    }
    return row;
  }

  async function changed(tenantId: number, deviceIds: number[]) {
    if (onDevicesChanged && deviceIds.length > 0) {
      await onDevicesChanged(tenantId, deviceIds);
    }
  }

  /** Options a select field loses while devices still hold them: 409. */
  async function requireOptionsUnused(ex: Executor, ctx: RequestContext, before: FieldRow, options: string[]) {
    const removed = before.options.filter((o) => !options.includes(o));
    const inUse = await countValuesUsing(ex, ctx, before.id, removed);
    const [option, devices] = [...inUse.entries()][0] ?? [];
    if (option !== undefined && devices !== undefined) {
      throw conflict(messages.optionInUse(option, devices), 'CUSTOM_FIELD_OPTION_IN_USE');
    }
  }

  async function deviceFields(ctx: RequestContext, idOrGuid: string): Promise<DeviceFieldsResponse> {
    const device = await findScopedDeviceRef(db, ctx, idOrGuid);
    if (!device) {
      throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
    }
    const [fields, stored] = await Promise.all([listFields(db, ctx), deviceValues(db, ctx, device.id)]);
    return { device_id: device.id, device_guid: device.deviceGuid, fields: fieldsOfDevice(fields, stored) };
  }

  return {
    // Any member reads the definitions (the device detail shows them).
    async list(ctx: RequestContext): Promise<CustomField[]> {
      return (await listFields(db, ctx)).map(toCustomField);
    },

    async create(ctx: RequestContext, body: CustomFieldCreateInput): Promise<CustomField> {
      requireAdmin(ctx);
      return db.transaction(async (tx) => {
        if ((await countFields(tx, ctx)) >= MAX_CUSTOM_FIELDS) {
          throw conflict(messages.tooManyFields, 'CUSTOM_FIELD_LIMIT');
        }
        const values = {
          key: body.key,
          name: body.name,
          fieldType: body.field_type,
          options: body.field_type === 'select' ? body.options : [],
          required: body.required,
          defaultValue: body.default_value,
        };
        const row = await insertField(tx, ctx, values);
        if (!row) {
          throw conflict(messages.keyTaken(body.key), 'CUSTOM_FIELD_KEY_TAKEN');
        }
        await writeAudit(tx, ctx, {
          action: 'Create Custom Field',
          resourceType: 'custom_field',
          resourceId: row.id,
          details: `Created custom field ${row.name} (${row.key})`,
          newValues: auditDefinition(row),
        });
        return toCustomField(row);
      });
    },

    async update(ctx: RequestContext, id: number, body: CustomFieldUpdateBody): Promise<CustomField> {
      requireAdmin(ctx);
      const row = await db.transaction(async (tx) => {
        const before = await loadField(tx, ctx, id, true);
        const options = body.options ?? before.options;
        const checked = checkDefinition({
          field_type: before.fieldType,
          options,
          default_value: body.default_value === undefined ? before.defaultValue : body.default_value,
        });
        if (!checked.ok) {
          throw badRequest(checked.message, 'CUSTOM_FIELD_INVALID');
        }
        if (body.options) {
          await requireOptionsUnused(tx, ctx, before, options);
        }
        const patch = {
          name: body.name ?? before.name,
          options,
          required: body.required ?? before.required,
          defaultValue: checked.default_value,
        };
        await updateField(tx, ctx, id, patch);
        await writeAudit(tx, ctx, {
          action: 'Update Custom Field',
          resourceType: 'custom_field',
          resourceId: id,
          details: `Updated custom field ${patch.name} (${before.key})`,
          oldValues: auditDefinition(before),
          newValues: auditDefinition({ ...before, ...patch }),
        });
        return loadField(tx, ctx, id);
      });
      return toCustomField(row);
    },

    async remove(ctx: RequestContext, id: number): Promise<DeleteCustomFieldResponse> {
      requireAdmin(ctx);
      const holders = await db.transaction(async (tx) => {
        const before = await loadField(tx, ctx, id, true);
        const deviceIds = await deleteField(tx, ctx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Custom Field',
          resourceType: 'custom_field',
          resourceId: id,
          details:
            `Deleted custom field ${before.name} (${before.key})` +
            (deviceIds.length > 0 ? `; values removed from ${deviceIds.length} device${deviceIds.length === 1 ? '' : 's'}` : ''),
          oldValues: { ...auditDefinition(before), values_removed: deviceIds.length },
        });
        return deviceIds;
      });
      await changed(ctx.tenantId, holders);
      return { deleted: 1, values_removed: holders.length };
    },

    async reorder(ctx: RequestContext, body: CustomFieldReorderBody): Promise<CustomField[]> {
      requireAdmin(ctx);
      return db.transaction(async (tx) => {
        const fields = await listFields(tx, ctx);
        const ids = body.field_ids;
        const known = new Set(fields.map((f) => f.id));
        if (ids.length !== fields.length || new Set(ids).size !== ids.length || !ids.every((i) => known.has(i))) {
          throw badRequest(messages.reorderMismatch, 'CUSTOM_FIELD_REORDER');
        }
        await setPositions(tx, ctx, ids);
        const keyOf = new Map(fields.map((f) => [f.id, f.key]));
        await writeAudit(tx, ctx, {
          action: 'Reorder Custom Fields',
          resourceType: 'custom_field',
          details: `Reordered ${ids.length} custom fields`,
          oldValues: fields.map((f) => f.key),
          newValues: ids.map((i) => keyOf.get(i)),
        });
        return (await listFields(tx, ctx)).map(toCustomField);
      });
    },

    // Device values: any member, on a device they may see (docs/product/administration.md#who-may-do-what).
    deviceFields,

    async setDeviceFields(ctx: RequestContext, idOrGuid: string, values: FieldValuesBody): Promise<DeviceFieldsResponse> {
      const device = await findScopedDeviceRef(db, ctx, idOrGuid);
      if (!device) {
        throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
      }
      await db.transaction(async (tx) => {
        const plan = planValues(await listFields(tx, ctx), values);
        await applyPlan(tx, ctx, [device], plan);
      });
      await changed(ctx.tenantId, [device.id]);
      return deviceFields(ctx, String(device.id));
    },

    /** The same values on the selected devices; every one must be in the caller's scope (else 404, nothing changes). */
    async bulkSet(ctx: RequestContext, body: BulkFieldValuesBody): Promise<BulkFieldValuesResponse> {
      const ids = [...new Set(body.device_ids)];
      const devices = await findScopedDeviceRefs(db, ctx, ids);
      const found = new Set(devices.map((d) => d.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw notFound(deviceMessages.devicesNotFound(missing), 'DEVICE_NOT_FOUND');
      }
      await db.transaction(async (tx) => {
        const plan = planValues(await listFields(tx, ctx), body.values);
        await applyPlan(tx, ctx, devices, plan);
      });
      await changed(ctx.tenantId, ids);
      const n = ids.length;
      return { updated: n, device_ids: ids, message: `Custom fields set on ${n} device${n === 1 ? '' : 's'}` };
    },

    /**
     * A deployment step's output into a device's field (docs/product/device-sets.md#custom-fields):
     * text is the whole trimmed output, cut to 500 characters; other types parse the trimmed output.
     * Output that does not fit is not stored, and the answer says why for the step's log.
     */
    // The port services.ts hands the deployment engine (engine/step-output.ts StepOutputStore).
    async storeStepOutput(step: {
      tenantId: number;
      deviceId: number;
      fieldKey: string;
      output: string;
      /** what wrote it, for the audit entry: "Deployment 'Name', step 2" */
      source: string;
    }): Promise<StoreOutputResult> {
      const { tenantId, deviceId, fieldKey, output, source } = step;
      const scope = tenantOnly(tenantId);
      const fields = await listFields(db, scope);
      const field = fields.find((f) => f.key === fieldKey);
      if (!field) {
        return { stored: false, note: messages.outputNotStored(fieldKey, 'no such custom field') };
      }
      const trimmed = output.trim();
      const input = field.fieldType === 'text' ? trimmed.slice(0, CUSTOM_FIELD_TEXT_MAX).trim() : trimmed;
      const canonical = canonicalValue({ field_type: field.fieldType, options: field.options }, input);
      if (!canonical.ok) {
        return { stored: false, note: messages.outputNotStored(fieldKey, canonical.reason) };
      }
      const [device] = await findScopedDeviceRefs(db, { tenantId, siteAccessType: 'all', siteIds: [] }, [deviceId]);
      if (!device) {
        return { stored: false, note: messages.outputNotStored(fieldKey, 'the device is gone') };
      }
      const actor = systemActor({ tenantId, name: source, ip: null, userAgent: null });
      await db.transaction((tx) =>
        applyPlan(tx, actor, [device], {
          sets: [{ field, fieldId: field.id, valueText: canonical.text, valueNumber: canonical.number }],
          clears: [],
        }),
      );
      await changed(tenantId, [deviceId]);
      return { stored: true, value: canonical.text };
    },
  };
}

export type CustomFieldsService = ReturnType<typeof createCustomFieldsService>;
