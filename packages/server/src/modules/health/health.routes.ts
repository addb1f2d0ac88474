import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorBody, apiSuccess } from '@outpost/contract/envelope';
import type { Database } from '../../db/client';

export const HealthStatus = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });

export const healthRoutes: FastifyPluginCallbackZod<{ database: Database }> = (app, opts, done) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], response: { 200: apiSuccess(HealthStatus), 503: ApiErrorBody } },
    },
    async (_req, reply) => {
      try {
        await opts.database.ping();
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        return reply.status(503).send({ success: false, error: 'Database unavailable', code: 'DB_DOWN' });
      }
      return { success: true as const, data: { status: 'ok' as const, database: opts.database.kind } };
    },
  );
  done();
};
