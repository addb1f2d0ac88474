import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  CreateDeviceActionsResponse,
  DeviceActionBody,
  DeviceActionListQuery,
  DeviceActionListResponse,
} from '@outpost/contract/device-actions';
import { apiSuccess } from '@outpost/contract/envelope';
import type { Db } from '../../db/client';
import { createDevicesService } from '../devices/devices.service';
import { createDeviceActionsService } from './device-actions.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/deployments.md#calls Deployments and actions used by this area.
export const deviceActionsRoutes: FastifyPluginCallbackZod<{ db: Db }> = (app, opts, done) => {
  const service = createDeviceActionsService({
    db: opts.db,
    commandQueue: app.commandQueue,
    devices: createDevicesService({ db: opts.db, commandQueue: app.commandQueue, bus: app.bus }),
  });
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
