import { and, asc, eq, like } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enrollmentTokens, sites, tenants } from '../../db/schema/index';

export async function findTenantIdByName(db: Db, tenantName: string): Promise<number | null> {
  const [tenant] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.tenantName, tenantName))
    .limit(1);
  return tenant?.id ?? null;
}

export function listFirstSites(db: Db, tenantId: number, limit: number) {
  return db
    .select({ id: sites.id, code: sites.siteCode })
    .from(sites)
    .where(eq(sites.tenantId, tenantId))
    .orderBy(asc(sites.id))
    .limit(limit);
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
