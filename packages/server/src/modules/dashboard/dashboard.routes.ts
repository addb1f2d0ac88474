import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { DashboardStats } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import type { DashboardService } from './dashboard.service';

// docs/product/devices.md#calls GET /customer/devices/stats/dashboard (the path stays under devices, as the product description
// names it).
export const dashboardRoutes: FastifyPluginCallbackZod<{ service: DashboardService }> = (app, opts, done) => {
  const { service } = opts;

  app.get(
    '/devices/stats/dashboard',
    {
      config: { access: 'member' },
      schema: { tags: ['dashboard'], response: { 200: apiSuccess(DashboardStats) } },
    },
    async (request) => ({ success: true as const, data: await service.stats(request.ctx) }),
  );
  done();
};
