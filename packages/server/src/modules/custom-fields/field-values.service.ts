import {
  canonicalValue,
  CUSTOM_FIELD_TEXT_MAX,
  customFieldMessages as messages,
} from '@outpost/contract/custom-fields';
import type {
  BulkFieldValuesBody,
  BulkFieldValuesResponse,
  DeviceFieldsResponse,
  FieldValuesBody,
} from '@outpost/contract/custom-fields';
import { deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { systemActor } from '../../lib/audit';
import { notFound } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import { tenantOnly } from '../../lib/scope';
import { deviceValues, findScopedDeviceRef, findScopedDeviceRefs, listFields } from './custom-fields.queries';
import { applyPlan, fieldsOfDevice, planValues } from './field-values';

// Device values of custom fields (docs/product/device-sets.md#custom-fields): any member, on the
// devices they may see (docs/product/administration.md#who-may-do-what), one device or a
// selection; and the deployment engine's step output. Composed into the custom-fields service.

/** What a deployment step's output became (engine/step-output.ts). */
export type StoreOutputResult = { stored: true; value: string } | { stored: false; note: string };

export function createFieldValuesService({
  db,
  changed,
}: {
  db: Db;
  /** tells the groups module, after the commit */
  changed: (tenantId: number, deviceIds: number[]) => Promise<void>;
}) {
  async function deviceFields(ctx: RequestContext, idOrGuid: string): Promise<DeviceFieldsResponse> {
    const device = await findScopedDeviceRef(db, ctx, idOrGuid);
    if (!device) {
      throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
    }
    const [fields, stored] = await Promise.all([listFields(db, ctx), deviceValues(db, ctx, device.id)]);
    return { device_id: device.id, device_guid: device.deviceGuid, fields: fieldsOfDevice(fields, stored) };
  }

  return {
    // Device values: any member, on a device they may see (docs/product/administration.md#who-may-do-what).
    deviceFields,

    async setDeviceFields(
      ctx: RequestContext,
      idOrGuid: string,
      values: FieldValuesBody,
    ): Promise<DeviceFieldsResponse> {
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
      return {
        updated: n,
        device_ids: ids,
        message: `Custom fields set on ${n} device${n === 1 ? '' : 's'}`,
      };
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
      const [device] = await findScopedDeviceRefs(db, { tenantId, siteAccessType: 'all', siteIds: [] }, [
        deviceId,
      ]);
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
