import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  Webhook,
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeliveryIdParams,
  WebhookDeliveryListResponse,
  WebhookDeliveryQuery,
  WebhookIdParams,
  WebhookListResponse,
  WebhookSendResponse,
  WebhookUpdateBody,
} from '@outpost/contract/webhooks';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { WebhooksService } from './webhooks.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/webhooks.md#subscriptions, under /api/customer: administrators of all sites (the
// service checks).
export const webhooksRoutes: FastifyPluginCallbackZod<{ service: WebhooksService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['webhooks'];
  const config = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/webhooks',
    { config, schema: { tags, response: { 200: apiSuccess(WebhookListResponse) } } },
    async (request) => ok(await service.list(request.ctx)),
  );
  app.post(
    '/webhooks',
    { config, schema: { tags, body: WebhookCreateBody, response: { 200: apiSuccess(WebhookCreated) } } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );
  app.get(
    '/webhooks/:id',
    { config, schema: { tags, params: WebhookIdParams, response: { 200: apiSuccess(Webhook) } } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );
  app.put(
    '/webhooks/:id',
    {
      config,
      schema: {
        tags,
        params: WebhookIdParams,
        body: WebhookUpdateBody,
        response: { 200: apiSuccess(Webhook) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/webhooks/:id',
    {
      config,
      schema: {
        tags,
        params: WebhookIdParams,
        response: { 200: apiSuccess(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  app.post(
    '/webhooks/:id/test',
    { config, schema: { tags, params: WebhookIdParams, response: { 200: apiSuccess(WebhookSendResponse) } } },
    async (request) => ok(await service.sendTest(request.ctx, request.params.id)),
  );
  app.get(
    '/webhooks/:id/deliveries',
    {
      config,
      schema: {
        tags,
        params: WebhookIdParams,
        querystring: WebhookDeliveryQuery,
        response: { 200: apiSuccess(WebhookDeliveryListResponse) },
      },
    },
    async (request) => ok(await service.deliveries(request.ctx, request.params.id, request.query.page)),
  );
  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config,
      schema: { tags, params: WebhookDeliveryIdParams, response: { 200: apiSuccess(WebhookSendResponse) } },
    },
    async (request) => ok(await service.redeliver(request.ctx, request.params.id, request.params.deliveryId)),
  );
  done();
};
