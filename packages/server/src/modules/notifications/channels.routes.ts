import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  ChannelCreateBody,
  ChannelCreated,
  ChannelIdParams,
  ChannelListResponse,
  ChannelUpdateBody,
  DeliveryIdParams,
  DeliveryListResponse,
  NotificationChannel,
  SendResponse,
} from '@outpost/contract/notification-channels';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { ChannelsService } from './channels.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/monitoring.md#notification-channels, under /api/customer: administrators of all
// sites (the service checks).
export const notificationChannelsRoutes: FastifyPluginCallbackZod<{ service: ChannelsService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['notifications'];
  const config = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/notification-channels',
    { config, schema: { tags, response: { 200: apiSuccess(ChannelListResponse) } } },
    async (request) => ok(await service.list(request.ctx)),
  );
  app.post(
    '/notification-channels',
    { config, schema: { tags, body: ChannelCreateBody, response: { 200: apiSuccess(ChannelCreated) } } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );
  app.get(
    '/notification-channels/:id',
    { config, schema: { tags, params: ChannelIdParams, response: { 200: apiSuccess(NotificationChannel) } } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );
  app.put(
    '/notification-channels/:id',
    {
      config,
      schema: {
        tags,
        params: ChannelIdParams,
        body: ChannelUpdateBody,
        response: { 200: apiSuccess(NotificationChannel) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/notification-channels/:id',
    {
      config,
      schema: {
        tags,
        params: ChannelIdParams,
        response: { 200: apiSuccess(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  app.post(
    '/notification-channels/:id/test',
    { config, schema: { tags, params: ChannelIdParams, response: { 200: apiSuccess(SendResponse) } } },
    async (request) => ok(await service.sendTest(request.ctx, request.params.id)),
  );
  app.get(
    '/notification-channels/:id/deliveries',
    {
      config,
      schema: { tags, params: ChannelIdParams, response: { 200: apiSuccess(DeliveryListResponse) } },
    },
    async (request) => ok(await service.deliveries(request.ctx, request.params.id)),
  );
  app.post(
    '/notification-channels/:id/deliveries/:deliveryId/redeliver',
    { config, schema: { tags, params: DeliveryIdParams, response: { 200: apiSuccess(SendResponse) } } },
    async (request) => ok(await service.redeliver(request.ctx, request.params.id, request.params.deliveryId)),
  );
  done();
};
