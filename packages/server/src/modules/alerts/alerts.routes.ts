import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  Alert,
  AlertBulkBody,
  AlertBulkResult,
  AlertCounts,
  AlertIdParams,
  AlertListQuery,
  AlertListResponse,
  AlertNoteBody,
  AlertRoute,
  AlertRouteBody,
  AlertRouteListResponse,
  MaintenanceBody,
  MaintenanceResponse,
} from '@outpost/contract/alerts';
import { DeviceIdParams } from '@outpost/contract/devices';
import { SiteIdParams } from '@outpost/contract/sites';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { AlertRoutesService } from './alert-routes.service';
import type { AlertsService } from './alerts.service';
import type { MaintenanceService } from './maintenance.service';

const ok = <T>(data: T) => ({ success: true as const, data });

const DeviceBadgesQuery = z.object({
  guids: z
    .string()
    .max(40 * 200)
    .default(''),
});
const DeviceBadges = z.object({
  data: z.record(
    z.string(),
    z.object({ count: z.number().int(), severity: z.enum(['info', 'warning', 'critical']) }),
  ),
});

// docs/product/monitoring.md#alerts, under /api/customer: alerts and their counts for every member
// (within their sites), maintenance mode of devices and sites, routing rules (administrators of
// all sites; the services check).
export const alertsRoutes: FastifyPluginCallbackZod<{
  alerts: AlertsService;
  maintenance: MaintenanceService;
  routes: AlertRoutesService;
}> = (app, opts, done) => {
  const { alerts, maintenance, routes } = opts;
  const tags = ['alerts'];
  const member = { access: 'member' as const };
  const admin = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/alerts',
    {
      config: member,
      schema: { tags, querystring: AlertListQuery, response: { 200: apiSuccess(AlertListResponse) } },
    },
    async (request) => ok(await alerts.list(request.ctx, request.query)),
  );
  app.get(
    '/alerts/counts',
    { config: member, schema: { tags, response: { 200: apiSuccess(AlertCounts) } } },
    async (request) => ok(await alerts.counts(request.ctx)),
  );
  app.get(
    '/alerts/by-device',
    {
      config: member,
      schema: { tags, querystring: DeviceBadgesQuery, response: { 200: apiSuccess(DeviceBadges) } },
    },
    async (request) =>
      ok(await alerts.byDevice(request.ctx, request.query.guids.split(',').filter(Boolean).slice(0, 200))),
  );
  app.post(
    '/alerts/acknowledge',
    { config: member, schema: { tags, body: AlertBulkBody, response: { 200: apiSuccess(AlertBulkResult) } } },
    async (request) => ok(await alerts.bulkAcknowledge(request.ctx, request.body.ids, request.body.note)),
  );
  app.get(
    '/alerts/:id',
    { config: member, schema: { tags, params: AlertIdParams, response: { 200: apiSuccess(Alert) } } },
    async (request) => ok(await alerts.get(request.ctx, request.params.id)),
  );
  app.post(
    '/alerts/:id/acknowledge',
    {
      config: member,
      schema: { tags, params: AlertIdParams, body: AlertNoteBody, response: { 200: apiSuccess(Alert) } },
    },
    async (request) => ok(await alerts.acknowledge(request.ctx, request.params.id, request.body.note)),
  );
  app.post(
    '/alerts/:id/resolve',
    {
      config: member,
      schema: { tags, params: AlertIdParams, body: AlertNoteBody, response: { 200: apiSuccess(Alert) } },
    },
    async (request) => ok(await alerts.resolve(request.ctx, request.params.id, request.body.note)),
  );

  const maintenanceSchema = { tags, response: { 200: apiSuccess(MaintenanceResponse) } };
  app.get(
    '/devices/:id/maintenance',
    { config: member, schema: { ...maintenanceSchema, params: DeviceIdParams } },
    async (request) => ok(await maintenance.ofDevice(request.ctx, request.params.id)),
  );
  app.put(
    '/devices/:id/maintenance',
    { config: member, schema: { ...maintenanceSchema, params: DeviceIdParams, body: MaintenanceBody } },
    async (request) => ok(await maintenance.setDevice(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/devices/:id/maintenance',
    { config: member, schema: { ...maintenanceSchema, params: DeviceIdParams } },
    async (request) => ok(await maintenance.endDevice(request.ctx, request.params.id)),
  );
  app.get(
    '/sites/:id/maintenance',
    { config: member, schema: { ...maintenanceSchema, params: SiteIdParams } },
    async (request) => ok(await maintenance.ofSite(request.ctx, request.params.id)),
  );
  app.put(
    '/sites/:id/maintenance',
    { config: admin, schema: { ...maintenanceSchema, params: SiteIdParams, body: MaintenanceBody } },
    async (request) => ok(await maintenance.setSite(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/sites/:id/maintenance',
    { config: admin, schema: { ...maintenanceSchema, params: SiteIdParams } },
    async (request) => ok(await maintenance.endSite(request.ctx, request.params.id)),
  );

  app.get(
    '/alert-routes',
    { config: admin, schema: { tags, response: { 200: apiSuccess(AlertRouteListResponse) } } },
    async (request) => ok(await routes.list(request.ctx)),
  );
  app.post(
    '/alert-routes',
    { config: admin, schema: { tags, body: AlertRouteBody, response: { 200: apiSuccess(AlertRoute) } } },
    async (request) => ok(await routes.create(request.ctx, request.body)),
  );
  app.put(
    '/alert-routes/:id',
    {
      config: admin,
      schema: {
        tags,
        params: AlertIdParams,
        body: AlertRouteBody,
        response: { 200: apiSuccess(AlertRoute) },
      },
    },
    async (request) => ok(await routes.update(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/alert-routes/:id',
    {
      config: admin,
      schema: {
        tags,
        params: AlertIdParams,
        response: { 200: apiSuccess(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(await routes.remove(request.ctx, request.params.id)),
  );
  done();
};
