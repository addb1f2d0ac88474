import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  MaintenanceWindow,
  MaintenanceWindowBody,
  MaintenanceWindowDeleted,
  MaintenanceWindowIdParams,
  MaintenanceWindowList,
  MaintenanceWindowListQuery,
} from '@outpost/contract/maintenance-windows';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { MaintenanceWindowsService } from './maintenance-windows.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/rollouts.md#maintenance-windows. Reads for every member (the sites and groups they
// see); the service decides who may change a site's or a group's windows.
export const maintenanceWindowsRoutes: FastifyPluginCallbackZod<{ service: MaintenanceWindowsService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['maintenance-windows'];
  const member = { access: 'member' as const };
  useSpecValidationMessages(app);

  app.get(
    '/maintenance-windows',
    {
      config: member,
      schema: {
        tags,
        querystring: MaintenanceWindowListQuery,
        response: { 200: apiSuccess(MaintenanceWindowList) },
      },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.post(
    '/maintenance-windows',
    {
      config: member,
      schema: { tags, body: MaintenanceWindowBody, response: { 200: apiSuccess(MaintenanceWindow) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.put(
    '/maintenance-windows/:id',
    {
      config: member,
      schema: {
        tags,
        params: MaintenanceWindowIdParams,
        body: MaintenanceWindowBody,
        response: { 200: apiSuccess(MaintenanceWindow) },
      },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/maintenance-windows/:id',
    {
      config: member,
      schema: {
        tags,
        params: MaintenanceWindowIdParams,
        response: { 200: apiSuccess(MaintenanceWindowDeleted) },
      },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  done();
};
