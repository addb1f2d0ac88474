import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  PolicyCreateBody,
  PolicyDetail,
  PolicyIdParams,
  PolicyJobsResponse,
  PolicyListResponse,
  PolicyUpdateBody,
} from '@outpost/contract/policies';
import type { PoliciesService } from './policies.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/device-sets.md#automation-policies: /api/customer/policies. Every member route;
// who may change which policy is the service's rule (policy-access.ts).
export const policiesRoutes: FastifyPluginCallbackZod<{ service: PoliciesService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['policies'];
  const access = { access: 'member' as const };
  const one = { 200: apiSuccess(PolicyDetail) };

  app.get(
    '/policies',
    { config: access, schema: { tags, response: { 200: apiSuccess(PolicyListResponse) } } },
    async (request) => ok(await service.list(request.ctx)),
  );
  app.post(
    '/policies',
    { config: access, schema: { tags, body: PolicyCreateBody, response: one } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );
  app.get(
    '/policies/:id',
    { config: access, schema: { tags, params: PolicyIdParams, response: one } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );
  app.put(
    '/policies/:id',
    { config: access, schema: { tags, params: PolicyIdParams, body: PolicyUpdateBody, response: one } },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );
  app.post(
    '/policies/:id/enable',
    { config: access, schema: { tags, params: PolicyIdParams, response: one } },
    async (request) => ok(await service.setEnabled(request.ctx, request.params.id, true)),
  );
  app.post(
    '/policies/:id/disable',
    { config: access, schema: { tags, params: PolicyIdParams, response: one } },
    async (request) => ok(await service.setEnabled(request.ctx, request.params.id, false)),
  );
  app.delete(
    '/policies/:id',
    {
      config: access,
      schema: {
        tags,
        params: PolicyIdParams,
        response: { 200: apiSuccess(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  app.get(
    '/policies/:id/jobs',
    {
      config: access,
      schema: { tags, params: PolicyIdParams, response: { 200: apiSuccess(PolicyJobsResponse) } },
    },
    async (request) => ok(await service.jobs(request.ctx, request.params.id)),
  );
  done();
};
