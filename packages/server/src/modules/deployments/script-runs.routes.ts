import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { IdParam } from '@outpost/contract/input';
import { apiSuccess } from '@outpost/contract/envelope';
import { ScriptRunDetailSchema, ScriptRunsPageSchema, ScriptRunsQuery } from '@outpost/contract/script-runs';
import { bearerToken } from '../../lib/bearer';
import type { ScriptRunsService } from './script-runs.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// Script runs (docs/product/scripts.md#runs): the history, a run's results, its cancel.
export const scriptRunsRoutes: FastifyPluginCallbackZod<{ service: ScriptRunsService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['scripts'];
  const params = z.object({ id: IdParam });

  app.get(
    '/script-runs',
    {
      config: { access: 'member' },
      schema: { tags, querystring: ScriptRunsQuery, response: { 200: apiSuccess(ScriptRunsPageSchema) } },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );
  // the response schemas describe a run in the OpenAPI document (and the typed client, packages/client)
  const detail = { 200: apiSuccess(ScriptRunDetailSchema) };
  app.get(
    '/script-runs/:id',
    { config: { access: 'member' }, schema: { tags, params, response: detail } },
    async (request) => ok(await service.detail(request.ctx, request.params.id)),
  );
  app.post(
    '/script-runs/:id/cancel',
    { config: { access: 'member' }, schema: { tags, params, response: detail } },
    async (request) => ok(await service.cancel(request.ctx, request.params.id)),
  );
  done();
};

/**
 * GET /api/agent/script-runs/{commandId}/secrets (docs/product/scripts.md#secrets): an agent
 * fetches the secret values of its own running run_script command, authenticated like its socket.
 */
export const agentScriptRunsRoutes: FastifyPluginCallbackZod<{ service: ScriptRunsService }> = (
  app,
  opts,
  done,
) => {
  app.get(
    '/script-runs/:commandId/secrets',
    {
      config: { access: 'agent' },
      schema: { tags: ['agents'], params: z.object({ commandId: z.uuid() }), hide: true },
    },
    async (request, reply) => {
      const guid = request.headers[AGENT_DEVICE_HEADER];
      const credentials = {
        deviceGuid: typeof guid === 'string' ? guid : null,
        secret: bearerToken(request.headers.authorization),
      };
      const secrets = await opts.service.agentSecrets(credentials, request.params.commandId);
      return reply.header('Cache-Control', 'private, no-store').send({ secrets });
    },
  );
  done();
};
