import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeviceIdParams } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  DeviceTagsBulkBody,
  DeviceTagsBulkResponse,
  DeviceTagsPutBody,
  DeviceTagsResponse,
  Tag,
  TagCreateBody,
  TagIdParams,
  TagListResponse,
  TagUpdateBody,
} from '@outpost/contract/tags';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { TagsService } from './tags.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/device-sets.md#tags, under /api/customer. Reading and tagging devices for every
// member (within their sites), creating by any member; renaming, recolouring and deleting for
// administrators (the service checks).
export const tagsRoutes: FastifyPluginCallbackZod<{ service: TagsService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['tags'];
  const member = { access: 'member' as const };
  const admin = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/tags',
    { config: member, schema: { tags, response: { 200: apiSuccess(TagListResponse) } } },
    async (request) => ok(await service.list(request.ctx)),
  );

  app.post(
    '/tags',
    { config: member, schema: { tags, body: TagCreateBody, response: { 200: apiSuccess(Tag) } } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.put(
    '/tags/:id',
    {
      config: admin,
      schema: { tags, params: TagIdParams, body: TagUpdateBody, response: { 200: apiSuccess(Tag) } },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/tags/:id',
    {
      config: admin,
      schema: {
        tags,
        params: TagIdParams,
        response: { 200: apiSuccess(z.object({ id: z.number().int(), devices_untagged: z.number().int() })) },
      },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );

  app.post(
    '/devices/tags',
    {
      config: member,
      schema: { tags, body: DeviceTagsBulkBody, response: { 200: apiSuccess(DeviceTagsBulkResponse) } },
    },
    async (request) => ok(await service.bulk(request.ctx, request.body)),
  );

  app.get(
    '/devices/:id/tags',
    {
      config: member,
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(DeviceTagsResponse) } },
    },
    async (request) => ok(await service.ofDevice(request.ctx, request.params.id)),
  );

  app.put(
    '/devices/:id/tags',
    {
      config: member,
      schema: {
        tags,
        params: DeviceIdParams,
        body: DeviceTagsPutBody,
        response: { 200: apiSuccess(DeviceTagsResponse) },
      },
    },
    async (request) => ok(await service.setOfDevice(request.ctx, request.params.id, request.body.tags)),
  );
  done();
};
