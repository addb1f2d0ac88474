import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { DashboardStats } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import type { Db } from '../../db/client';
import type { DeploymentsService } from '../deployments/deployments.service';
import { createDevicesService } from '../devices/devices.service';
import { createTenantsService } from '../tenants/tenants.service';
import { createDashboardService } from './dashboard.service';

// docs/product/devices.md#calls GET /customer/devices/stats/dashboard (the path stays under devices, as the product description
// names it).
export const dashboardRoutes: FastifyPluginCallbackZod<{
  db: Db;
  deployments: Pick<DeploymentsService, 'countRunning'>;
}> = (app, opts, done) => {
  const service = createDashboardService({
    db: opts.db,
    devices: createDevicesService({ db: opts.db, commandQueue: app.commandQueue, bus: app.bus }),
    tenants: createTenantsService(opts.db),
    deployments: opts.deployments,
  });

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
