import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  CreateDeviceActionsResponse,
  DeviceActionBody,
  DeviceActionListQuery,
  DeviceActionListResponse,
} from '@outpost/contract/device-actions';
import { apiSuccess } from '@outpost/contract/envelope';
import type { DeviceActionsService } from './device-actions.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/deployments.md#calls Deployments and actions used by this area.
export const deviceActionsRoutes: FastifyPluginCallbackZod<{ service: DeviceActionsService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['device-actions'];

  app.post(
    '/deployments/device-actions',
    {
      config: { access: 'member' },
      schema: { tags, body: DeviceActionBody, response: { 200: apiSuccess(CreateDeviceActionsResponse) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.get(
    '/deployments/device-actions/list',
    {
      config: { access: 'member' },
      schema: {
        tags,
        querystring: DeviceActionListQuery,
        response: { 200: apiSuccess(DeviceActionListResponse) },
      },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );
  done();
};
