import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  AuditActionsResponse,
  AuditListQuery,
  AuditListResponse,
  AuditStats,
  AuditStatsQuery,
} from '@outpost/contract/audit';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import { sendCsv, wantsCsv } from '../../lib/csv';
import type { AuditService } from './audit.service';

const ok = <T>(data: T) => ({ success: true as const, data });

// docs/product/activity.md#calls. Administrators only; there are no routes that change or
// delete entries.
export const auditRoutes: FastifyPluginCallbackZod<{ service: AuditService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['audit'];
  const config = { access: 'admin' as const };
  useSpecValidationMessages(app);

  app.get(
    '/audit',
    {
      config,
      schema: { tags, querystring: AuditListQuery, response: { 200: apiSuccess(AuditListResponse) } },
    },
    // `Accept: text/csv`: every entry the filters match, streamed (docs/product/device-sets.md#exports)
    async (request, reply) => {
      if (wantsCsv(request.headers.accept)) {
        const { page: _page, limit: _limit, ...filters } = request.query;
        return sendCsv(reply, service.exportCsv(request.ctx, filters));
      }
      return ok(await service.list(request.ctx, request.query));
    },
  );

  app.get(
    '/audit/stats',
    { config, schema: { tags, querystring: AuditStatsQuery, response: { 200: apiSuccess(AuditStats) } } },
    async (request) => ok(await service.stats(request.ctx, request.query.days)),
  );
  app.get(
    '/audit/actions',
    { config, schema: { tags, response: { 200: apiSuccess(AuditActionsResponse) } } },
    async (request) => ok(await service.actions(request.ctx)),
  );
  done();
};
