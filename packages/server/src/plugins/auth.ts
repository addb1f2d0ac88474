import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { messages } from '@outpost/contract/messages';
import type { Role, SiteAccessType } from '@outpost/contract/auth';
import { tenants, users, userSites } from '../db/schema/index';
import type { Db } from '../db/client';
import { forbidden, unauthorized } from '../lib/errors';
import type { SessionTokens } from '../modules/auth/session-token';

// The caller, as every service sees it first (STYLE.md: `list(ctx, query)`).
export type RequestContext = {
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
 * Resolves a session token to a live membership row. The row is read on every request, so a
 * deleted user (or a changed role) takes effect at once, on every instance. It is one indexed
 * primary-key join.
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
  const [row] = await db
    .select({
      userId: users.id,
      tenantId: users.tenantId,
      email: users.email,
      name: users.name,
      role: users.role,
      siteAccessType: users.siteAccessType,
      tenantName: tenants.tenantName,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.id, claims.userId), eq(users.tenantId, claims.tenantId)))
    .limit(1);
  if (!row) {
    return null;
  }
  const siteIds =
    row.siteAccessType === 'specific'
      ? (
          await db
            .select({ siteId: userSites.siteId })
            .from(userSites)
            .where(eq(userSites.userId, row.userId))
        ).map((r) => r.siteId)
      : [];
  return { ...row, siteIds, ip: meta.ip, userAgent: meta.userAgent };
}

export const authPlugin = fp(
  async (app, opts: { db: Db; tokens: SessionTokens }) => {
    app.decorateRequest('ctx', null as unknown as RequestContext);
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
      request.ctx = ctx;
    });
  },
  { name: 'auth' },
);

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
  interface FastifyInstance {
    requireSession(request: FastifyRequest): Promise<void>;
  }
  interface FastifyContextConfig {
    /** Routes under /api/customer require a session unless marked public. */
    isPublic?: boolean;
  }
}
