import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { messages } from '@outpost/contract/messages';
import type { Db } from '../db/client';
import { bearerToken } from '../lib/bearer';
import type { RequestContext } from '../lib/context';
import { unauthorized } from '../lib/errors';
import type { SessionTokens } from '../modules/auth/session-token';
import { resolveSession } from '../modules/auth/sessions.service';

// Puts the signed-in caller (lib/context.ts) on the request; the auth module resolves the session.

const SESSION = Symbol('session');
type WithSession = FastifyRequest & { [SESSION]?: RequestContext };

export const authPlugin = fp(
  (app, opts: { db: Db; tokens: SessionTokens }, done) => {
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
      const ctx = await resolveSession(opts.db, opts.tokens, token, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      if (!ctx) {
        throw unauthorized(messages.tokenInvalid, 'INVALID_SESSION');
      }
      (request as WithSession)[SESSION] = ctx;
    });
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
