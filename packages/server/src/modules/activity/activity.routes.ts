import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivityChartResponse,
  ActivityLogQuery,
  ActivityLogResponse,
  ActivityOverviewPage,
  ActivityOverviewQuery,
  DeviceActivityOverviewResponse,
  WeeklySummaryResponse,
  pagedOverviewQuery,
} from '@outpost/contract/activity';
import { DeviceIdParams } from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import type { ActivityService } from './activity.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/activity.md#calls device activity calls.
// The device id is numeric or a guid, as on the other device routes.
export const activityRoutes: FastifyPluginCallbackZod<{ service: ActivityService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['device activity'];
  // any member of the tenant; the service applies tenant and site scope
  const config = { access: 'member' as const };

  app.get(
    '/device-activity/overview',
    {
      config,
      schema: {
        tags,
        querystring: ActivityOverviewQuery,
        response: { 200: apiSuccess(z.union([ActivityOverviewPage, DeviceActivityOverviewResponse])) },
      },
    },
    async (request, reply) => {
      // with any paging parameter: one page (docs/decisions/2026-11-26-device-activity-overview.md)
      const paged = pagedOverviewQuery(request.query);
      if (paged) {
        return ok(await service.overviewPage(request.ctx, paged));
      }
      // the product's full list comes serialised (a large scope's is reused; see
      // OVERVIEW_REUSE_DEVICES): a string with a JSON content type is sent as it is
      return reply
        .type('application/json; charset=utf-8')
        .send((await service.overviewJson(request.ctx)) as never);
    },
  );

  app.get(
    '/device-activity/device/:id',
    {
      config,
      schema: {
        tags,
        params: DeviceIdParams,
        querystring: ActivityLogQuery,
        response: { 200: apiSuccess(ActivityLogResponse) },
      },
    },
    async (request) => ok(await service.log(request.ctx, request.params.id, request.query.days)),
  );

  app.get(
    '/device-activity/device/:id/chart',
    {
      config,
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(ActivityChartResponse) } },
    },
    async (request) => ok(await service.chart(request.ctx, request.params.id)),
  );

  app.get(
    '/device-activity/device/:id/weekly-summary',
    {
      config,
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(WeeklySummaryResponse) } },
    },
    async (request) => ok(await service.weekly(request.ctx, request.params.id)),
  );
  done();
};
