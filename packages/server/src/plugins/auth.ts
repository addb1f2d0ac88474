import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { messages } from '@outpost/contract/messages';
import type { Role, SiteAccessType } from '@outpost/contract/auth';
import type { Db } from '../db/client';
import { forbidden, unauthorized } from '../lib/errors';
import { findSessionMember, listUserSiteIds } from '../modules/auth/auth.queries';
import type { SessionTokens } from '../modules/auth/session-token';

// The caller, as every service sees it first (STYLE.md: `list(ctx, query)`).
export type RequestContext = {
  /** the server-side session behind the token (null for contexts no session made) */
  sessionId: string | null;
  /** the signed-in person (SECURITY.md R2-1); null for contexts no sign-in made */
  identityId: number | null;
  userId: number;
  tenantId: number;
  tenantName: string;
  email: string;
  name: string | null;
  role: Role;
  siteAccessType: SiteAccessType;
  /** Sites the user may see when siteAccessType is 'specific'. */
  siteIds: number[];
  ip: string;
  userAgent: string | null;
};

export const isAdmin = (ctx: RequestContext) => ctx.role === 'tenant_admin';

export function requireAdmin(ctx: RequestContext): void {
  if (!isAdmin(ctx)) {
    throw forbidden(messages.adminOnly, 'ADMIN_ONLY');
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    return header.slice('Bearer '.length).trim() || null;
  }
  return null;
}

/**
 * Resolves a session token to a live session and its membership row. Both are read on every
 * request, so a sign-out, a deleted user or a changed role takes effect at once, on every
 * instance. It is one indexed primary-key join.
 */
export async function resolveSession(
  db: Db,
  tokens: SessionTokens,
  token: string,
  meta: { ip: string; userAgent: string | null },
): Promise<RequestContext | null> {
  const claims = await tokens.verify(token);
  if (!claims) {
    return null;
  }
  const row = await findSessionMember(db, claims);
  if (!row) {
    return null;
  }
  const siteIds = row.siteAccessType === 'specific' ? await listUserSiteIds(db, row.userId) : [];
  return { ...row, siteIds, ip: meta.ip, userAgent: meta.userAgent };
}

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
      const token = bearerToken(request);
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
