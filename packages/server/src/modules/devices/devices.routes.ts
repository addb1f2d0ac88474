import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CleanupBody, CleanupPlan, CleanupResult } from '@outpost/contract/device-cleanup';
import {
  BulkDeleteDevicesBody,
  DeleteDevicesResponse,
  Device,
  DeviceIdParams,
  DeviceListQuery,
  DeviceListResponse,
  RefreshParams,
  RefreshResponse,
  ServiceControlParams,
  ServiceControlResponse,
  ServiceListResponse,
  SiteOption,
  SoftwareListQuery,
  SoftwareListResponse,
} from '@outpost/contract/devices';
import { apiSuccess } from '@outpost/contract/envelope';
import { sendCsv, wantsCsv } from '../../lib/csv';
import type { DevicesService } from './devices.service';

export type DevicesRoutesOptions = { service: DevicesService };

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/devices.md#calls Devices and docs/product/administration.md#calls, under /api/customer. Tenant and site scope,
// admin rules and audit live in the service.
export const devicesRoutes: FastifyPluginCallbackZod<DevicesRoutesOptions> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['devices'];

  app.get(
    '/devices',
    {
      config: { access: 'member' },
      schema: { tags, querystring: DeviceListQuery, response: { 200: apiSuccess(DeviceListResponse) } },
    },
    // `Accept: text/csv`: every matching device, streamed (docs/product/device-sets.md#exports)
    async (request, reply) => {
      if (wantsCsv(request.headers.accept)) {
        const { page: _page, limit: _limit, ...filters } = request.query;
        return sendCsv(reply, await service.exportCsv(request.ctx, filters));
      }
      return ok(await service.list(request.ctx, request.query));
    },
  );

  app.get(
    '/devices/sites/list',
    { config: { access: 'member' }, schema: { tags, response: { 200: apiSuccess(z.array(SiteOption)) } } },
    async (request) => ok(await service.sites(request.ctx)),
  );

  // The preview changes nothing; a POST because it takes the cleanup's own body (SECURITY.md R2-4).
  app.post(
    '/devices/cleanup/preview',
    {
      config: { access: 'admin' },
      schema: { tags, body: CleanupBody, response: { 200: apiSuccess(CleanupPlan) } },
    },
    async (request) => ok(await service.previewCleanup(request.ctx, request.body)),
  );

  app.post(
    '/devices/cleanup',
    {
      config: { access: 'admin' },
      schema: { tags, body: CleanupBody, response: { 200: apiSuccess(CleanupResult) } },
    },
    async (request) => ok(await service.cleanup(request.ctx, request.body)),
  );

  app.delete(
    '/devices',
    {
      config: { access: 'admin' },
      schema: { tags, body: BulkDeleteDevicesBody, response: { 200: apiSuccess(DeleteDevicesResponse) } },
    },
    async (request) => ok(await service.removeMany(request.ctx, request.body)),
  );

  app.get(
    '/devices/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(Device) } },
    },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );

  app.delete(
    '/devices/:id',
    {
      config: { access: 'admin' },
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(DeleteDevicesResponse) } },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );

  app.get(
    '/devices/:id/software',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: DeviceIdParams,
        querystring: SoftwareListQuery,
        response: { 200: apiSuccess(SoftwareListResponse) },
      },
    },
    async (request) => ok(await service.software(request.ctx, request.params.id, request.query)),
  );

  app.get(
    '/devices/:id/services',
    {
      config: { access: 'member' },
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(ServiceListResponse) } },
    },
    async (request) => ok(await service.services(request.ctx, request.params.id)),
  );

  app.post(
    '/devices/:id/services/:serviceName/:action',
    {
      config: { access: 'member' },
      schema: { tags, params: ServiceControlParams, response: { 200: apiSuccess(ServiceControlResponse) } },
    },
    async (request) => {
      const { id, serviceName, action } = request.params;
      return ok(await service.controlService(request.ctx, id, serviceName, action));
    },
  );

  app.post(
    '/devices/:id/refresh/:kind',
    {
      config: { access: 'member' },
      schema: { tags, params: RefreshParams, response: { 200: apiSuccess(RefreshResponse) } },
    },
    async (request) => ok(await service.refresh(request.ctx, request.params.id, request.params.kind)),
  );
  done();
};
