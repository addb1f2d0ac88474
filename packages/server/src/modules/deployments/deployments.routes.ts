import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import {
  DeploymentCreateBody,
  DeploymentIdParams,
  DeploymentJob,
  DeploymentJobDetail,
  DeploymentListQuery,
  DeploymentListResponse,
  StepLogsQuery,
  StepLogsResponse,
} from '@outpost/contract/deployments';
import { apiSuccess } from '@outpost/contract/envelope';
import { ResumeRolloutBody, Rollout, SkipGateBody } from '@outpost/contract/rollouts';
import { IdParam } from '@outpost/contract/input';
import { bearerToken } from '../../lib/bearer';
import { sendCsv, wantsCsv } from '../../lib/csv';
import type { DeploymentsService } from './deployments.service';

const ok = <T>(data: T) => ({ success: true as const, data });
const RolloutActionResponseSchema = z.object({ job_id: z.number().int(), rollout: Rollout });

// docs/product/deployments.md#calls; .
export const deploymentsRoutes: FastifyPluginCallbackZod<{ service: DeploymentsService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['deployments'];

  app.post(
    '/deployments',
    {
      config: { access: 'member' },
      schema: { tags, body: DeploymentCreateBody, response: { 200: apiSuccess(DeploymentJob) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.get(
    '/deployments',
    {
      config: { access: 'member' },
      schema: {
        tags,
        querystring: DeploymentListQuery,
        response: { 200: apiSuccess(DeploymentListResponse) },
      },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.get(
    '/deployments/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: DeploymentIdParams, response: { 200: apiSuccess(DeploymentJobDetail) } },
    },
    // `Accept: text/csv`: the per-device results, streamed (docs/product/device-sets.md#exports)
    async (request, reply) =>
      wantsCsv(request.headers.accept)
        ? sendCsv(reply, await service.exportCsv(request.ctx, request.params.id))
        : ok(await service.get(request.ctx, request.params.id)),
  );

  // docs/product/deployments.md#calls — "one reading: POST; another reading: PUT": both are accepted.
  app.route({
    method: ['POST', 'PUT'],
    url: '/deployments/:id/cancel',
    config: { access: 'member' },
    schema: { tags, params: DeploymentIdParams, response: { 200: apiSuccess(DeploymentJob) } },
    handler: async (request) => ok(await service.cancel(request.ctx, request.params.id)),
  });

  // docs/product/rollouts.md#rollout-actions: the cancel's permissions and scope
  const actionResponse = { 200: apiSuccess(RolloutActionResponseSchema) };
  app.post(
    '/deployments/:id/rollout/pause',
    { config: { access: 'member' }, schema: { tags, params: DeploymentIdParams, response: actionResponse } },
    async (request) => ok(await service.rolloutAction(request.ctx, request.params.id, 'pause')),
  );
  app.post(
    '/deployments/:id/rollout/resume',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: DeploymentIdParams,
        body: ResumeRolloutBody.optional(),
        response: actionResponse,
      },
    },
    async (request) =>
      ok(await service.rolloutAction(request.ctx, request.params.id, 'resume', request.body ?? {})),
  );
  app.post(
    '/deployments/:id/rollout/abort',
    { config: { access: 'member' }, schema: { tags, params: DeploymentIdParams, response: actionResponse } },
    async (request) => ok(await service.rolloutAction(request.ctx, request.params.id, 'abort')),
  );
  app.post(
    '/deployments/:id/rollout/skip-gate',
    {
      config: { access: 'member' },
      schema: { tags, params: DeploymentIdParams, body: SkipGateBody, response: actionResponse },
    },
    async (request) =>
      ok(await service.rolloutAction(request.ctx, request.params.id, 'skip-gate', request.body)),
  );

  app.get(
    '/deployments/device-deployment/:id/logs',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: DeploymentIdParams,
        querystring: StepLogsQuery,
        response: { 200: apiSuccess(StepLogsResponse) },
      },
    },
    async (request) => ok(await service.stepLogs(request.ctx, request.params.id, request.query)),
  );
  done();
};

/**
 * GET /api/agent/files/{id} (docs/product/packages.md#files): an agent downloads a file one of its unfinished
 * deployments uses, authenticated with its device guid and secret like its socket.
 */
export const agentFilesRoutes: FastifyPluginCallbackZod<{ service: DeploymentsService }> = (
  app,
  opts,
  done,
) => {
  app.get(
    '/files/:id',
    {
      config: { access: 'agent' },
      schema: { tags: ['agents'], params: z.object({ id: IdParam }), hide: true },
    },
    async (request, reply) => {
      const guid = request.headers[AGENT_DEVICE_HEADER];
      const credentials = {
        deviceGuid: typeof guid === 'string' ? guid : null,
        secret: bearerToken(request.headers.authorization),
      };
      const file = await opts.service.openAgentFile(credentials, request.params.id);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Length', String(file.size))
        .header('X-Content-SHA256', file.sha256)
        .header('Cache-Control', 'private, no-store')
        .send(file.stream);
    },
  );
  done();
};
