import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { ApiToken, ApiTokenScope } from '@outpost/contract/api-tokens';
import { apiTokens, sites, tenants, users, userSites } from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inTenant } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';

// The only writer of api_tokens (docs/product/administration.md#api-tokens).

/** How often a token's last use is written at most, unless its address changed. */
const LAST_USE_EVERY_SECONDS = 60;

const tokenColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  tokenPrefix: apiTokens.tokenPrefix,
  scopes: apiTokens.scopes,
  siteIds: apiTokens.siteIds,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  lastUsedAt: apiTokens.lastUsedAt,
  lastUsedIp: apiTokens.lastUsedIp,
  createdBy: apiTokens.createdBy,
  createdByName: apiTokens.createdByName,
};
type TokenRow = {
  [K in keyof typeof tokenColumns]: (typeof apiTokens.$inferSelect)[K & keyof typeof apiTokens.$inferSelect];
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApiToken(r: TokenRow, now = new Date()): ApiToken {
  const state = r.revokedAt ? 'revoked' : r.expiresAt && r.expiresAt <= now ? 'expired' : 'active';
  return {
    id: r.id,
    name: r.name,
    token_prefix: r.tokenPrefix,
    scopes: r.scopes as ApiTokenScope[],
    site_ids: r.siteIds ?? null,
    state,
    created_at: r.createdAt.toISOString(),
    expires_at: iso(r.expiresAt),
    revoked_at: iso(r.revokedAt),
    last_used_at: iso(r.lastUsedAt),
    last_used_ip: r.lastUsedIp,
    created_by_id: r.createdBy,
    created_by_name: r.createdByName,
  };
}

export async function listApiTokens(db: Reader, scope: TenantScope): Promise<ApiToken[]> {
  const rows = await db
    .select(tokenColumns)
    .from(apiTokens)
    .where(inTenant(apiTokens, scope))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map((r) => toApiToken(r));
}

export async function findApiToken(db: Reader, scope: TenantScope, id: number): Promise<ApiToken | null> {
  const [row] = await db
    .select(tokenColumns)
    .from(apiTokens)
    .where(and(inTenant(apiTokens, scope), eq(apiTokens.id, id)));
  return row ? toApiToken(row) : null;
}

/** Which of these ids are sites of the tenant. */
export async function findTenantSiteIds(
  db: Reader,
  scope: TenantScope,
  siteIds: number[],
): Promise<number[]> {
  if (siteIds.length === 0) {
    return [];
  }
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(inTenant(sites, scope), inArray(sites.id, siteIds)));
  return rows.map((r) => r.id);
}

export async function insertApiToken(tx: Executor, values: typeof apiTokens.$inferInsert): Promise<number> {
  const rows = await tx.insert(apiTokens).values(values).returning({ id: apiTokens.id });
  return firstOrThrow(rows, 'insert api token').id;
}

export async function revokeApiToken(tx: Executor, scope: TenantScope, id: number): Promise<void> {
  await tx
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(inTenant(apiTokens, scope), eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
}

/**
 * A live token by the hash of its secret, with the membership of the administrator it acts for:
 * revoked, expired, or whose creator is gone or no longer an administrator, it is not found.
 */
export async function findLiveTokenByHash(db: Reader, tokenHash: string) {
  const [row] = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      scopes: apiTokens.scopes,
      siteIds: apiTokens.siteIds,
      expiresAt: apiTokens.expiresAt,
      userId: users.id,
      identityId: users.identityId,
      tenantId: users.tenantId,
      tenantName: tenants.tenantName,
      email: users.email,
      userName: users.name,
      role: users.role,
      siteAccessType: users.siteAccessType,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.id, apiTokens.createdBy), eq(users.tenantId, apiTokens.tenantId)))
    .innerJoin(tenants, eq(tenants.id, apiTokens.tenantId))
    .where(
      and(
        eq(apiTokens.tokenHash, tokenHash),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)),
        eq(users.role, 'tenant_admin'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Records a use (time and address), at most once a minute unless the address changed. */
export async function touchApiToken(tx: Executor, id: number, ip: string): Promise<void> {
  await tx
    .update(apiTokens)
    .set({ lastUsedAt: new Date(), lastUsedIp: ip || null })
    .where(
      and(
        eq(apiTokens.id, id),
        or(
          isNull(apiTokens.lastUsedAt),
          lt(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${LAST_USE_EVERY_SECONDS})`),
          sql`${apiTokens.lastUsedIp} is distinct from ${ip || null}`,
        ),
      ),
    );
}

/** The sites of a site-limited member (a token's creator). */
export async function findMemberSiteIds(db: Reader, userId: number): Promise<number[]> {
  const rows = await db
    .select({ siteId: userSites.siteId })
    .from(userSites)
    .where(eq(userSites.userId, userId));
  return rows.map((r) => r.siteId);
}
