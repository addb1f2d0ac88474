import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  BulkDeleteSitesBody,
  DeleteSitesResponse,
  Site,
  SiteCreateBody,
  SiteIdParams,
  SiteListQuery,
  SiteListResponse,
  SiteUpdateBody,
} from '@outpost/contract/sites';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { SitesService } from './sites.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/administration.md#calls. Reads for every member (within their sites), writes for
// administrators.
export const sitesRoutes: FastifyPluginCallbackZod<{ service: SitesService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['sites'];
  const member = { access: 'member' as const };
  const admin = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/sites',
    {
      config: member,
      schema: { tags, querystring: SiteListQuery, response: { 200: apiSuccess(SiteListResponse) } },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.post(
    '/sites',
    { config: admin, schema: { tags, body: SiteCreateBody, response: { 200: apiSuccess(Site) } } },
    async (request) => ok(await service.create(request.ctx, request.body)),
  );

  app.delete(
    '/sites',
    {
      config: admin,
      schema: { tags, body: BulkDeleteSitesBody, response: { 200: apiSuccess(DeleteSitesResponse) } },
    },
    async (request) => ok(await service.removeMany(request.ctx, request.body)),
  );

  app.get(
    '/sites/:id',
    { config: member, schema: { tags, params: SiteIdParams, response: { 200: apiSuccess(Site) } } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );

  app.put(
    '/sites/:id',
    {
      config: admin,
      schema: { tags, params: SiteIdParams, body: SiteUpdateBody, response: { 200: apiSuccess(Site) } },
    },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/sites/:id',
    {
      config: admin,
      schema: { tags, params: SiteIdParams, response: { 200: apiSuccess(DeleteSitesResponse) } },
    },
    async (request) => ok(await service.remove(request.ctx, request.params.id)),
  );
  done();
};
