import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { apiTokenMessages } from '@outpost/contract/api-tokens';
import { messages } from '@outpost/contract/messages';
import type { Db } from '../db/client';
import { bearerToken } from '../lib/bearer';
import type { RequestContext } from '../lib/context';
import { forbidden, HttpError, unauthorized } from '../lib/errors';
import { requiredScope } from '../modules/api-tokens/api-token-areas';
import { isApiTokenSecret } from '../modules/api-tokens/api-tokens.service';
import type { SessionTokens } from '../modules/auth/session-token';
import { resolveSession } from '../modules/auth/sessions.service';

// Puts the signed-in caller (lib/context.ts) on the request; the auth module resolves the session.

const SESSION = Symbol('session');
type WithSession = FastifyRequest & { [SESSION]?: RequestContext };

/** API tokens for automation (docs/product/administration.md#api-tokens), resolved by their module. */
export type ApiTokenAuth = {
  resolve(token: string, meta: { ip: string; userAgent: string | null }): Promise<RequestContext | null>;
  /** counts a request of a token against its per-minute budget (@fastify/rate-limit's store) */
  limit(request: FastifyRequest): Promise<{ isExceeded: boolean; ttlInSeconds: number }>;
};

/**
 * A token may call a route only with the scope of the route's area and method
 * (modules/api-tokens/api-token-areas.ts); routes of no area refuse every token.
 */
function checkTokenScope(request: FastifyRequest, scopes: readonly string[]): void {
  const scope = requiredScope(request.method, request.routeOptions.url ?? '');
  if (scope === null) {
    throw forbidden(apiTokenMessages.routeRefused, 'TOKEN_ROUTE_REFUSED');
  }
  if (!scopes.includes(scope)) {
    throw forbidden(apiTokenMessages.scopeMissing(scope), 'TOKEN_SCOPE_MISSING');
  }
}

export const authPlugin = fp(
  (app, opts: { db: Db; tokens: SessionTokens; apiTokens?: ApiTokenAuth }, done) => {
    // `request.ctx` is the signed-in caller. It exists only after requireSession has run (every
    // /api/customer route but the public ones): reading it anywhere else is a programming error
    // that answers 401 instead of handing a null to code typed as if it could not be one.
    app.decorateRequest('ctx', {
      getter(this: FastifyRequest): RequestContext {
        const ctx = (this as WithSession)[SESSION];
        if (!ctx) {
          throw unauthorized(messages.tokenMissing, 'NO_TOKEN');
        }
        return ctx;
      },
    });
    app.decorate('requireSession', async (request: FastifyRequest) => {
      const token = bearerToken(request.headers.authorization);
      if (!token) {
        throw unauthorized(messages.tokenMissing, 'NO_TOKEN');
      }
      const meta = { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
      if (opts.apiTokens && isApiTokenSecret(token)) {
        const caller = await opts.apiTokens.resolve(token, meta);
        if (!caller?.apiToken) {
          throw unauthorized(apiTokenMessages.invalid, 'INVALID_API_TOKEN');
        }
        checkTokenScope(request, caller.apiToken.scopes);
        (request as WithSession)[SESSION] = caller;
        return;
      }
      const ctx = await resolveSession(opts.db, opts.tokens, token, meta);
      if (!ctx) {
        throw unauthorized(messages.tokenInvalid, 'INVALID_SESSION');
      }
      (request as WithSession)[SESSION] = ctx;
    });
    // Each token's requests per minute (docs/product/administration.md#api-tokens): counted once
    // the access hook (plugins/access.ts, registered first) has let the token through.
    const { apiTokens } = opts;
    if (apiTokens) {
      app.addHook('onRequest', async (request, reply) => {
        if (!(request as WithSession)[SESSION]?.apiToken) {
          return;
        }
        const verdict = await apiTokens.limit(request);
        if (verdict.isExceeded) {
          void reply.header('retry-after', String(verdict.ttlInSeconds));
          throw new HttpError(429, apiTokenMessages.rateLimited, 'TOKEN_RATE_LIMITED');
        }
      });
    }
    done();
  },
  { name: 'auth' },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller; reading it on a route without a session answers 401. */
    readonly ctx: RequestContext;
  }
  interface FastifyInstance {
    requireSession(request: FastifyRequest): Promise<void>;
  }
}
