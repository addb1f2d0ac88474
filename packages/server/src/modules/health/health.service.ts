import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';

// The health of the dependencies behind GET /api/health (health.routes.ts): the database answers
// a ping within PING_TIMEOUT_MS, and Redis, when REDIS_URL is set, is connected.

export type DependencyState = 'up' | 'down';
export type RedisState = DependencyState | 'not configured';

export type HealthReport =
  | {
      database: 'up';
      redis: RedisState;
      /** `degraded` when Redis is down: the instance serves, live updates between instances pause */
      status: 'ok' | 'degraded';
      kind: Database['kind'];
    }
  | { database: 'down'; redis: RedisState };

/** A database that does not answer within this time counts as down. */
const PING_TIMEOUT_MS = 3000;

export type HealthServiceDeps = {
  database: Pick<Database, 'ping' | 'kind'>;
  /** the state of the Redis connection, when REDIS_URL is set */
  redisState?: () => DependencyState;
  log: Pick<FastifyBaseLogger, 'warn'>;
};

export function createHealthService({ database, redisState, log }: HealthServiceDeps) {
  /** Whether the database answers in time; the reason it did not is logged. */
  async function databaseUp(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        database.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS);
        }),
      ]);
      return true;
    } catch (err) {
      log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'health check: database unreachable',
      );
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async check(): Promise<HealthReport> {
      const redis: RedisState = redisState ? redisState() : 'not configured';
      if (!(await databaseUp())) {
        return { database: 'down', redis };
      }
      return { database: 'up', redis, status: redis === 'down' ? 'degraded' : 'ok', kind: database.kind };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
