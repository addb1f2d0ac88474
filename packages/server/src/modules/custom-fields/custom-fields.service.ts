import {
  checkDefinition,
  customFieldMessages as messages,
  MAX_CUSTOM_FIELDS,
} from '@outpost/contract/custom-fields';
import type {
  CustomField,
  CustomFieldCreateInput,
  CustomFieldReorderBody,
  CustomFieldUpdateBody,
  DeleteCustomFieldResponse,
} from '@outpost/contract/custom-fields';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import type { TenantScope } from '../../lib/scope';
import {
  countFields,
  countValuesUsing,
  deleteField,
  findField,
  findFieldKeys,
  insertField,
  listFields,
  setPositions,
  toCustomField,
  updateField,
} from './custom-fields.queries';
import type { FieldRow } from './custom-fields.queries';
import { createFieldValuesService } from './field-values.service';
export type { StoreOutputResult } from './field-values.service';

// Custom fields (docs/product/device-sets.md#custom-fields). Every member reads the definitions;
// administrators change them. Device values follow device access: any member, on the devices of
// their sites. After values change the groups module is told (onDevicesChanged) so dynamic groups
// follow.

export type CustomFieldsServiceDeps = {
  db: Db;
  /** told which devices' values changed, after the commit (dynamic groups re-evaluate) */
  onDevicesChanged?: (tenantId: number, deviceIds: number[]) => void | Promise<void>;
  /** told a field's default changed, after the commit (dynamic groups on the field re-evaluate) */
  onDefaultChanged?: (tenantId: number, key: string) => void | Promise<void>;
};

const auditDefinition = (
  f: Pick<FieldRow, 'key' | 'name' | 'fieldType' | 'options' | 'required' | 'defaultValue'>,
) => ({
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

async function loadField(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<FieldRow> {
  const row = await findField(ex, ctx, id, { lock });
  if (!row) {
    throw notFound(messages.fieldNotFound, 'CUSTOM_FIELD_NOT_FOUND');
  }
  return row;
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

export function createCustomFieldsService({
  db,
  onDevicesChanged,
  onDefaultChanged,
}: CustomFieldsServiceDeps) {
  async function changed(tenantId: number, deviceIds: number[]) {
    if (onDevicesChanged && deviceIds.length > 0) {
      await onDevicesChanged(tenantId, deviceIds);
    }
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
        return {
          field: await loadField(tx, ctx, id),
          defaultChanged: before.defaultValue !== patch.defaultValue,
        };
      });
      if (row.defaultChanged) {
        await onDefaultChanged?.(ctx.tenantId, row.field.key);
      }
      return toCustomField(row.field);
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
            (deviceIds.length > 0
              ? `; values removed from ${deviceIds.length} device${deviceIds.length === 1 ? '' : 's'}`
              : ''),
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
        if (
          ids.length !== fields.length ||
          new Set(ids).size !== ids.length ||
          !ids.every((i) => known.has(i))
        ) {
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

    ...createFieldValuesService({ db, changed }),
  };
}

export type CustomFieldsService = ReturnType<typeof createCustomFieldsService>;
