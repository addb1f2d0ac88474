import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess, MessageOnly } from '@outpost/contract/envelope';
import {
  ScriptExportQuery,
  ScriptIdParams,
  ScriptImportBody,
  ScriptInput,
  ScriptListQuery,
  ScriptRunInput,
  ScriptVersionParams,
} from '@outpost/contract/scripts';
import { INT4_MAX } from '@outpost/contract/input';
import { badRequest } from '../../lib/errors';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { ScriptsService } from './scripts.service';

const ok = <T>(data: T) => ({ success: true as const, data });
// The answers' shapes are the contract's TypeScript types; the serialiser passes them as they are.
const Any = z.unknown();

// docs/product/scripts.md#calls, under /api/customer: every member reads and runs scripts; the
// service refuses changes to site-limited members (scripts are shared by all sites).
export const scriptsRoutes: FastifyPluginCallbackZod<{ service: ScriptsService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['scripts'];
  const config = { access: 'member' as const };
  useSpecValidationMessages(app);

  app.get(
    '/scripts',
    { config, schema: { tags, querystring: ScriptListQuery, response: { 200: Any } } },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.get('/scripts/categories', { config, schema: { tags, response: { 200: Any } } }, async (request) =>
    ok(await service.categories(request.ctx)),
  );

  app.get(
    '/scripts/export',
    { config, schema: { tags, querystring: ScriptExportQuery, response: { 200: Any } } },
    async (request, reply) => {
      const ids = request.query.ids ? [...new Set(request.query.ids.split(',').map(Number))] : null;
      if (ids?.some((id) => id < 1 || id > INT4_MAX)) {
        throw badRequest('ids is a comma-separated list of script ids', 'VALIDATION_ERROR');
      }
      const doc = await service.exportScripts(request.ctx, ids);
      reply.header('Content-Disposition', 'attachment; filename="outpost-scripts.json"');
      return doc;
    },
  );

  app.post(
    '/scripts/import',
    { config, schema: { tags, body: ScriptImportBody, response: { 201: Any } } },
    async (request, reply) =>
      reply.status(201).send(ok(await service.importScripts(request.ctx, request.body))),
  );

  app.post(
    '/scripts',
    { config, schema: { tags, body: ScriptInput, response: { 201: Any } } },
    async (request, reply) => reply.status(201).send(ok(await service.create(request.ctx, request.body))),
  );

  app.get(
    '/scripts/:id',
    { config, schema: { tags, params: ScriptIdParams, response: { 200: Any } } },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );

  app.put(
    '/scripts/:id',
    { config, schema: { tags, params: ScriptIdParams, body: ScriptInput, response: { 200: Any } } },
    async (request) => ok(await service.update(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/scripts/:id',
    { config, schema: { tags, params: ScriptIdParams, response: { 200: apiSuccess(MessageOnly) } } },
    async (request) => {
      await service.remove(request.ctx, request.params.id);
      return ok({ message: 'Script deleted' });
    },
  );

  app.get(
    '/scripts/:id/versions',
    { config, schema: { tags, params: ScriptIdParams, response: { 200: Any } } },
    async (request) => ok(await service.versions(request.ctx, request.params.id)),
  );

  app.get(
    '/scripts/:id/versions/:version',
    { config, schema: { tags, params: ScriptVersionParams, response: { 200: Any } } },
    async (request) => ok(await service.version(request.ctx, request.params.id, request.params.version)),
  );

  app.post(
    '/scripts/:id/runs',
    { config, schema: { tags, params: ScriptIdParams, body: ScriptRunInput, response: { 201: Any } } },
    async (request, reply) =>
      reply.status(201).send(ok(await service.run(request.ctx, request.params.id, request.body))),
  );

  done();
};
