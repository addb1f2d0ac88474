import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  FleetSoftwareQuery,
  FleetSoftwareResponse,
  SoftwareDevicesQuery,
  SoftwareDevicesResponse,
} from '@outpost/contract/software';
import { sendCsv, wantsCsv } from '../../lib/csv';
import type { SoftwareService } from './software.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/device-sets.md#fleet-software, under /api/customer. `Accept: text/csv` answers the
// same list as a streamed CSV export of every row (docs/product/device-sets.md#exports).
export const softwareRoutes: FastifyPluginCallbackZod<{ service: SoftwareService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['software'];

  app.get(
    '/software',
    {
      config: { access: 'member' },
      schema: { tags, querystring: FleetSoftwareQuery, response: { 200: apiSuccess(FleetSoftwareResponse) } },
    },
    async (request, reply) =>
      wantsCsv(request.headers.accept)
        ? sendCsv(reply, service.exportList(request.ctx, request.query))
        : ok(await service.list(request.ctx, request.query)),
  );

  app.get(
    '/software/devices',
    {
      config: { access: 'member' },
      schema: {
        tags,
        querystring: SoftwareDevicesQuery,
        response: { 200: apiSuccess(SoftwareDevicesResponse) },
      },
    },
    async (request, reply) =>
      wantsCsv(request.headers.accept)
        ? sendCsv(reply, service.exportDevices(request.ctx, request.query))
        : ok(await service.devices(request.ctx, request.query)),
  );

  done();
};
