import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorBody, apiSuccess } from '@outpost/contract/envelope';
import { messages } from '@outpost/contract/messages';
import type { HealthService } from './health.service';

// GET /api/health: which dependency is down. 200 `ok` when everything is up, 200
// `degraded` when Redis is down but the database is up (the instance serves requests; live updates
// between instances pause and rate limits are per instance meanwhile), 503 DB_UNAVAILABLE when the
// database is down. `status` and `database` keep their earlier meaning for existing probes.

export const HealthChecks = z.object({
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down', 'not configured']),
});
export const HealthStatus = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['pglite', 'postgres']),
  checks: HealthChecks,
});
const HealthDown = ApiErrorBody.extend({ checks: HealthChecks });

export const healthRoutes: FastifyPluginCallbackZod<{ service: HealthService }> = (app, opts, done) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], response: { 200: apiSuccess(HealthStatus), 503: HealthDown } },
    },
    async (_req, reply) => {
      const report = await opts.service.check();
      if (report.database === 'down') {
        return reply.status(503).send({
          success: false,
          error: messages.databaseUnavailable,
          code: 'DB_UNAVAILABLE',
          checks: { database: 'down', redis: report.redis },
        });
      }
      return {
        success: true as const,
        data: {
          status: report.status,
          database: report.kind,
          checks: { database: 'up' as const, redis: report.redis },
        },
      };
    },
  );
  done();
};
