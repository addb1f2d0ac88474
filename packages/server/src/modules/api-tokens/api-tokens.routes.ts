import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  ApiToken,
  ApiTokenIdParams,
  ApiTokenListResponse,
  CreateApiTokenBody,
  CreatedApiToken,
} from '@outpost/contract/api-tokens';
import { apiSuccess } from '@outpost/contract/envelope';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { ApiTokensService } from './api-tokens.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/administration.md#api-tokens, under /api/customer: administrators only; no API
// token may call these (api-token-areas.ts refuses them), so a leaked token cannot mint another.
export const apiTokensRoutes: FastifyPluginCallbackZod<{ service: ApiTokensService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['api-tokens'];
  const admin = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/api-tokens',
    { config: admin, schema: { tags, response: { 200: apiSuccess(ApiTokenListResponse) } } },
    async (request) => ok(await service.list(request.ctx)),
  );

  app.post(
    '/api-tokens',
    {
      config: admin,
      schema: { tags, body: CreateApiTokenBody, response: { 200: apiSuccess(CreatedApiToken) } },
    },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.delete(
    '/api-tokens/:id',
    { config: admin, schema: { tags, params: ApiTokenIdParams, response: { 200: apiSuccess(ApiToken) } } },
    async (request) => ok(await service.revoke(request.ctx, request.params.id)),
  );
  done();
};
