import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  DeviceCheckListResponse,
  MonitoringPolicy,
  MonitoringPolicyBody,
  MonitoringPolicyIdParams,
  MonitoringPolicyListResponse,
  MonitoringPolicyUpdateBody,
} from '@outpost/contract/checks';
import { DeviceIdParams } from '@outpost/contract/devices';
import type { MonitoringService } from './monitoring.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/monitoring.md#monitoring-policies: /api/customer/monitoring-policies and a
// device's checks. Members read; administrators change (a site-limited one only within their
// sites: the service's rule, policies/policy-access.ts).
export const monitoringRoutes: FastifyPluginCallbackZod<{ service: MonitoringService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['monitoring'];
  const member = { access: 'member' as const };
  const admin = { access: 'admin' as const };
  const one = { 200: apiSuccess(MonitoringPolicy) };

  app.get(
    '/monitoring-policies',
    { config: member, schema: { tags, response: { 200: apiSuccess(MonitoringPolicyListResponse) } } },
    async (request) => ok({ data: await service.list(request.ctx) }),
  );
  app.post(
    '/monitoring-policies',
    { config: admin, schema: { tags, body: MonitoringPolicyBody, response: one } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );
  app.get(
    '/monitoring-policies/:id',
    { config: member, schema: { tags, params: MonitoringPolicyIdParams, response: one } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );
  app.put(
    '/monitoring-policies/:id',
    {
      config: admin,
      schema: { tags, params: MonitoringPolicyIdParams, body: MonitoringPolicyUpdateBody, response: one },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/monitoring-policies/:id',
    {
      config: admin,
      schema: {
        tags,
        params: MonitoringPolicyIdParams,
        response: { 200: apiSuccess(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  app.get(
    '/devices/:id/checks',
    {
      config: member,
      schema: { tags, params: DeviceIdParams, response: { 200: apiSuccess(DeviceCheckListResponse) } },
    },
    async (request) => ok({ data: await service.deviceChecks(request.ctx, request.params.id) }),
  );
  done();
};
