import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { ApiTokenAuth } from '../../plugins/auth';
import { resolveApiToken } from './api-tokens.service';

/**
 * What the auth plugin asks of API tokens (docs/product/administration.md#api-tokens): who a token
 * stands for, read on every request, and its requests per minute, counted in the rate limiter's
 * store (Redis when configured, so every instance shares one budget per token).
 */
export function apiTokenAuth(app: FastifyInstance, db: Db, perMinute: number): ApiTokenAuth {
  const limiter = app.createRateLimit({
    max: perMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => `api-token:${request.ctx.apiToken?.id ?? 0}`,
  });
  return {
    resolve: (token, meta) => resolveApiToken(db, token, meta),
    limit: async (request) => {
      const verdict = await limiter(request);
      // isAllowed means "on the allow list", which no token is
      return verdict.isAllowed ? { isExceeded: false, ttlInSeconds: 0 } : verdict;
    },
  };
}
