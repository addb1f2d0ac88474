import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  BulkFieldValuesBody,
  BulkFieldValuesResponse,
  CustomField,
  CustomFieldCreateBody,
  CustomFieldIdParams,
  CustomFieldListResponse,
  CustomFieldReorderBody,
  CustomFieldUpdateBody,
  DeleteCustomFieldResponse,
  DeviceFieldsResponse,
  FieldValuesBody,
} from '@outpost/contract/custom-fields';
import { DeviceIdParams } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { CustomFieldsService } from './custom-fields.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/device-sets.md#custom-fields, under /api/customer. Definitions: read by every
// member, changed by administrators. Values: every member, on the devices of their sites (the
// same rule as device actions). Scope, rules and audit live in the service.
export const customFieldsRoutes: FastifyPluginCallbackZod<{ service: CustomFieldsService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['custom-fields'];
  const member = { access: 'member' as const };
  const admin = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/custom-fields',
    { config: member, schema: { tags, response: { 200: apiSuccess(CustomFieldListResponse) } } },
    async (request) => ok(await service.list(request.ctx)),
  );

  app.post(
    '/custom-fields',
    {
      config: admin,
      schema: { tags, body: CustomFieldCreateBody, response: { 200: apiSuccess(CustomField) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.put(
    '/custom-fields/reorder',
    {
      config: admin,
      schema: { tags, body: CustomFieldReorderBody, response: { 200: apiSuccess(CustomFieldListResponse) } },
    },
    async (request) => ok(await service.reorder(request.ctx, request.body)),
  );

  app.put(
    '/custom-fields/:id',
    {
      config: admin,
      schema: {
        tags,
        params: CustomFieldIdParams,
        body: CustomFieldUpdateBody,
        response: { 200: apiSuccess(CustomField) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/custom-fields/:id',
    {
      config: admin,
      schema: { tags, params: CustomFieldIdParams, response: { 200: apiSuccess(DeleteCustomFieldResponse) } },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );

  app.post(
    '/devices/fields',
    {
      config: member,
      schema: { tags, body: BulkFieldValuesBody, response: { 200: apiSuccess(BulkFieldValuesResponse) } },
    },
    async (request) => ok(await service.bulkSet(request.ctx, request.body)),
  );

  app.get(
    '/devices/:id/fields',
    {
      config: member,
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(DeviceFieldsResponse) } },
    },
    async (request) => ok(await service.deviceFields(request.ctx, request.params.id)),
  );

  app.put(
    '/devices/:id/fields',
    {
      config: member,
      schema: {
        tags,
        params: DeviceIdParams,
        body: FieldValuesBody,
        response: { 200: apiSuccess(DeviceFieldsResponse) },
      },
    },
    async (request) => ok(await service.setDeviceFields(request.ctx, request.params.id, request.body)),
  );
  done();
};
