import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorBody, apiSuccess } from '@outpost/contract/envelope';
import { messages } from '@outpost/contract/messages';
import type { Database } from '../../db/client';

// GET /api/health: which dependency is down. 200 `ok` when everything is up, 200
// `degraded` when Redis is down but the database is up (the instance serves requests; live updates
// between instances pause and rate limits are per instance meanwhile), 503 DB_UNAVAILABLE when the
// database is down. `status` and `database` keep their earlier meaning for existing probes.

export type DependencyState = 'up' | 'down';
export type RedisState = DependencyState | 'not configured';

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

/** A database that does not answer within this time counts as down. */
const PING_TIMEOUT_MS = 3000;

export const healthRoutes: FastifyPluginCallbackZod<{
  database: Database;
  /** the state of the Redis connection, when REDIS_URL is set */
  redisState?: () => DependencyState;
}> = (app, opts, done) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], response: { 200: apiSuccess(HealthStatus), 503: HealthDown } },
    },
    async (_req, reply) => {
      const redis: RedisState = opts.redisState ? opts.redisState() : 'not configured';
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          opts.database.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS);
          }),
        ]);
      } catch (err) {
        app.log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'health check: database unreachable',
        );
        return reply.status(503).send({
          success: false,
          error: messages.databaseUnavailable,
          code: 'DB_UNAVAILABLE',
          checks: { database: 'down', redis },
        });
      } finally {
        clearTimeout(timer);
      }
      return {
        success: true as const,
        data: {
          status: redis === 'down' ? ('degraded' as const) : ('ok' as const),
          database: opts.database.kind,
          checks: { database: 'up' as const, redis },
        },
      };
    },
  );
  done();
};
