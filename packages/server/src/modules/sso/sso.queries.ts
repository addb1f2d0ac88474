import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { identities, sites, ssoProviders, users, userSites } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';

// Organisations' single sign-on providers (docs/product/sign-in.md#single-sign-on). The
// sso_providers table is written only here; memberships are read here and written through the
// users module (members.service.ts).

export type SsoProviderRow = typeof ssoProviders.$inferSelect;
export type SsoProviderValues = Omit<typeof ssoProviders.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export async function findProviderOfTenant(db: Reader, tenantId: number): Promise<SsoProviderRow | null> {
  const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.tenantId, tenantId));
  return row ?? null;
}

/** The provider that lists this e-mail domain among its allowed ones (one at most: domains are unique). */
export async function findProviderByDomain(db: Reader, domain: string): Promise<SsoProviderRow | null> {
  const [row] = await db
    .select()
    .from(ssoProviders)
    .where(sql`${ssoProviders.allowedDomains} @> ${JSON.stringify([domain])}::jsonb`)
    .limit(1);
  return row ?? null;
}

/** Which of these domains another organisation's provider already lists. */
export async function domainsTakenElsewhere(
  db: Reader,
  tenantId: number,
  domains: string[],
): Promise<string[]> {
  if (domains.length === 0) {
    return [];
  }
  const rows = await db
    .select({ domains: ssoProviders.allowedDomains })
    .from(ssoProviders)
    .where(ne(ssoProviders.tenantId, tenantId));
  const taken = new Set(rows.flatMap((r) => r.domains));
  return domains.filter((d) => taken.has(d));
}

export async function upsertProvider(tx: Executor, values: SsoProviderValues): Promise<void> {
  await tx
    .insert(ssoProviders)
    .values(values)
    .onConflictDoUpdate({ target: ssoProviders.tenantId, set: { ...values, updatedAt: sql`now()` } });
}

export async function deleteProvider(tx: Executor, tenantId: number): Promise<boolean> {
  const rows = await tx
    .delete(ssoProviders)
    .where(eq(ssoProviders.tenantId, tenantId))
    .returning({ id: ssoProviders.id });
  return rows.length > 0;
}

/** The tenant's sites among these ids. */
export async function tenantSiteIds(db: Reader, tenantId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.tenantId, tenantId), inArray(sites.id, ids)));
  return rows.map((r) => r.id);
}

export type TenantMember = {
  id: number;
  role: typeof users.$inferSelect.role;
  siteAccessType: typeof users.$inferSelect.siteAccessType;
  siteIds: number[];
};

/**
 * The tenant's membership of this person: the one bound to their identity (issuer and subject),
 * else an open invitation for their verified e-mail.
 */
export async function findTenantMember(
  db: Reader,
  tenantId: number,
  who: { issuer: string; subject: string; email: string },
): Promise<TenantMember | null> {
  const bound = db
    .select({ id: identities.id })
    .from(identities)
    .where(and(eq(identities.issuer, who.issuer), eq(identities.subject, who.subject)));
  const rows = await db
    .select({
      id: users.id,
      role: users.role,
      siteAccessType: users.siteAccessType,
      identityId: users.identityId,
    })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        sql`(${users.identityId} in ${bound} or (${users.identityId} is null and ${users.email} = ${who.email}))`,
      ),
    );
  const row = rows.find((r) => r.identityId !== null) ?? rows[0];
  if (!row) {
    return null;
  }
  const siteRows = await db
    .select({ id: userSites.siteId })
    .from(userSites)
    .where(eq(userSites.userId, row.id));
  return {
    id: row.id,
    role: row.role,
    siteAccessType: row.siteAccessType,
    siteIds: siteRows.map((r) => r.id).sort((a, b) => a - b),
  };
}

/** Administrators of all sites in the tenant, other than this member (the last one is never demoted). */
export async function countOtherAllSitesAdmins(
  db: Reader,
  tenantId: number,
  userId: number,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.role, 'tenant_admin'),
        eq(users.siteAccessType, 'all'),
        ne(users.id, userId),
      ),
    );
  return row?.n ?? 0;
}
