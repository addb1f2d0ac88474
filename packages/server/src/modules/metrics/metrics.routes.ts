import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { DeviceIdParams } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import { MetricsQuery, MetricsResponse } from '@outpost/contract/metrics';
import type { MetricsService } from './metrics.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/monitoring.md#metrics, under /api/customer: a device's CPU, memory and disk
// history for the Monitoring tab (the device by id or guid, in the caller's scope).
export const metricsRoutes: FastifyPluginCallbackZod<{ service: MetricsService }> = (app, opts, done) => {
  const { service } = opts;
  app.get(
    '/devices/:id/metrics',
    {
      config: { access: 'member' },
      schema: {
        tags: ['metrics'],
        params: DeviceIdParams,
        querystring: MetricsQuery,
        response: { 200: apiSuccess(MetricsResponse) },
      },
    },
    async (request) => ok(await service.history(request.ctx, request.params.id, request.query.range)),
  );
  done();
};
