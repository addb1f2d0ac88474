import { and, desc, eq, isNull, like, sql } from 'drizzle-orm';
import type { EnrollmentToken } from '@outpost/contract/agents';
import type { Db } from '../../db/client';
import { devices, enrollmentTokens, sites, tenants } from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Enrolment tokens and enrolment (docs/product/agent-protocol.md#enrolment). Queries only query; every token read goes
// through the caller's scope (a site-limited administrator sees the tokens of their sites).

const tokenColumns = {
  id: enrollmentTokens.id,
  name: enrollmentTokens.name,
  siteId: enrollmentTokens.siteId,
  siteName: sites.siteName,
  tokenPrefix: enrollmentTokens.tokenPrefix,
  createdAt: enrollmentTokens.createdAt,
  expiresAt: enrollmentTokens.expiresAt,
  revokedAt: enrollmentTokens.revokedAt,
  lastUsedAt: enrollmentTokens.lastUsedAt,
  useCount: enrollmentTokens.useCount,
  createdByName: enrollmentTokens.createdByName,
};

type TokenRow = {
  id: number;
  name: string | null;
  siteId: number | null;
  siteName: string | null;
  tokenPrefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  useCount: number;
  createdByName: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function tokenState(t: Pick<TokenRow, 'expiresAt' | 'revokedAt'>, now = new Date()) {
  if (t.revokedAt) {
    return 'revoked' as const;
  }
  if (t.expiresAt && t.expiresAt <= now) {
    return 'expired' as const;
  }
  return 'active' as const;
}

export function toEnrollmentToken(r: TokenRow): EnrollmentToken {
  return {
    id: r.id,
    name: r.name,
    site_id: r.siteId,
    site_name: r.siteName,
    token_prefix: r.tokenPrefix,
    state: tokenState(r),
    created_at: r.createdAt.toISOString(),
    expires_at: iso(r.expiresAt),
    revoked_at: iso(r.revokedAt),
    last_used_at: iso(r.lastUsedAt),
    use_count: r.useCount,
    created_by_name: r.createdByName,
  };
}

export async function listEnrollmentTokens(db: Reader, scope: Scope): Promise<EnrollmentToken[]> {
  const rows = await db
    .select(tokenColumns)
    .from(enrollmentTokens)
    .leftJoin(sites, eq(sites.id, enrollmentTokens.siteId))
    .where(inScope(enrollmentTokens, scope))
    .orderBy(desc(enrollmentTokens.createdAt), desc(enrollmentTokens.id));
  return rows.map(toEnrollmentToken);
}

export async function findEnrollmentToken(
  db: Reader,
  scope: Scope,
  id: number,
): Promise<EnrollmentToken | null> {
  const [row] = await db
    .select(tokenColumns)
    .from(enrollmentTokens)
    .leftJoin(sites, eq(sites.id, enrollmentTokens.siteId))
    .where(and(inScope(enrollmentTokens, scope), eq(enrollmentTokens.id, id)));
  return row ? toEnrollmentToken(row) : null;
}

/** A site of the tenant (the service decides whether the caller may use it). */
export async function findTenantSite(db: Reader, scope: TenantScope, siteId: number) {
  const [row] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(inTenant(sites, scope), eq(sites.id, siteId)));
  return row ?? null;
}

export async function insertEnrollmentToken(
  tx: Executor,
  values: typeof enrollmentTokens.$inferInsert,
): Promise<number> {
  const rows = await tx.insert(enrollmentTokens).values(values).returning({ id: enrollmentTokens.id });
  return firstOrThrow(rows, 'insert enrollment token').id;
}

export async function revokeEnrollmentToken(tx: Executor, scope: Scope, id: number): Promise<void> {
  await tx
    .update(enrollmentTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(inScope(enrollmentTokens, scope), eq(enrollmentTokens.id, id), isNull(enrollmentTokens.revokedAt)),
    );
}

export async function findTokenByHash(db: Reader, tokenHash: string) {
  const [row] = await db
    .select()
    .from(enrollmentTokens)
    .where(eq(enrollmentTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

export async function markTokenUsed(tx: Executor, tokenId: number): Promise<void> {
  await tx
    .update(enrollmentTokens)
    .set({ lastUsedAt: sql`now()`, useCount: sql`${enrollmentTokens.useCount} + 1` })
    .where(eq(enrollmentTokens.id, tokenId));
}

/** The tenant row: its id and max_agents. */
export async function findTenantForEnrolment(tx: Executor, tenantId: number) {
  const [row] = await tx
    .select({ id: tenants.id, maxAgents: tenants.maxAgents })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ?? null;
}

/** The tenant row, locked: max_agents is checked under it so two enrolments cannot both pass. */
export async function lockTenantForEnrolment(tx: Executor, tenantId: number) {
  const [row] = await tx
    .select({ id: tenants.id, maxAgents: tenants.maxAgents })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for('update');
  return row ?? null;
}

export async function countEnrolledDevices(tx: Reader, scope: TenantScope): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(devices)
    .where(inTenant(devices, scope));
  return row?.n ?? 0;
}

/** The device an agent claims to be (by guid, in the token's tenant), with its secret hash. */
export async function findClaimedDevice(tx: Reader, scope: TenantScope, deviceGuid: string) {
  const [row] = await tx
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      siteId: devices.siteId,
      secretHash: devices.secretHash,
    })
    .from(devices)
    .where(and(inTenant(devices, scope), eq(devices.deviceGuid, deviceGuid)))
    .limit(1);
  return row ?? null;
}

/** What an agent's socket upgrade is checked against: the device of a guid and its secret's hash. */
export async function findAgentCredentials(db: Reader, deviceGuid: string) {
  const [row] = await db
    .select({
      id: devices.id,
      tenantId: devices.tenantId,
      siteId: devices.siteId,
      deviceGuid: devices.deviceGuid,
      secretHash: devices.secretHash,
    })
    .from(devices)
    .where(eq(devices.deviceGuid, deviceGuid))
    .limit(1);
  return row ?? null;
}

export type NewEnrollmentToken = {
  name: string;
  siteId: number;
  tokenHash: string;
  tokenPrefix: string;
  createdByName: string;
};

/** Replaces the tenant's tokens whose name starts with namePrefix by the given ones. */
export async function replaceEnrollmentTokens(
  db: Db,
  tenantId: number,
  namePrefix: string,
  tokens: NewEnrollmentToken[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(enrollmentTokens)
      .where(and(eq(enrollmentTokens.tenantId, tenantId), like(enrollmentTokens.name, `${namePrefix}%`)));
    if (tokens.length > 0) {
      await tx.insert(enrollmentTokens).values(tokens.map((token) => ({ tenantId, ...token })));
    }
  });
}
