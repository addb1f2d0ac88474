import { and, asc, count, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { sites, tenants, users } from '../../db/schema/index';
import { firstOrThrow, statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inTenant, tenantOnly } from '../../lib/scope';

// Tenants and their first members. Tenants are the scope itself, so these queries take a tenant
// id rather than a caller's scope.

export async function insertTenant(tx: Executor, values: typeof tenants.$inferInsert) {
  return firstOrThrow(await tx.insert(tenants).values(values).returning(), 'insert tenant');
}

const tenantStatement = statementCache((db) =>
  db
    .select({
      id: tenants.id,
      tenantName: tenants.tenantName,
      plan: tenants.plan,
      maxAgents: tenants.maxAgents,
      licenseExpiry: tenants.licenseExpiry,
    })
    .from(tenants)
    .where(eq(tenants.id, sql.placeholder('tenantId')))
    .prepare(UNNAMED_STATEMENT),
);

/** The tenant's summary (the dashboard reads it on every request). */
export async function findTenant(db: Reader, tenantId: number) {
  const [row] = await tenantStatement(db, 'tenant').execute({ tenantId });
  return row ?? null;
}

export async function listTenantsWithUserCounts(db: Reader) {
  return db
    .select({
      id: tenants.id,
      tenantName: tenants.tenantName,
      plan: tenants.plan,
      maxAgents: tenants.maxAgents,
      licenseExpiry: tenants.licenseExpiry,
      users: count(users.id),
    })
    .from(tenants)
    .leftJoin(users, eq(users.tenantId, tenants.id))
    .groupBy(tenants.id)
    .orderBy(asc(tenants.id));
}

export async function countAllTenants(db: Reader): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tenants);
  return row?.n ?? 0;
}

/** How many of these sites belong to the tenant. */
export async function countTenantSites(db: Reader, tenantId: number, siteIds: number[]): Promise<number> {
  if (siteIds.length === 0) {
    return 0;
  }
  const [row] = await db
    .select({ n: count() })
    .from(sites)
    .where(and(inTenant(sites, tenantOnly(tenantId)), inArray(sites.id, siteIds)));
  return row?.n ?? 0;
}

/**
 * The tenant's own storage quota (null: the instance default), or undefined when there is no
 * such tenant. With `lock` the tenant row is held until the transaction ends, so uploads of one
 * tenant check their quota one at a time (SECURITY.md R2-14).
 */
export async function readStorageQuota(
  db: Executor,
  tenantId: number,
  opts: { lock?: boolean } = {},
): Promise<number | null | undefined> {
  const query = db
    .select({ quota: tenants.storageQuotaBytes })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row === undefined ? undefined : row.quota;
}

/** Sets the tenant's own quota (null: back to the instance default); false when no such tenant. */
export async function updateStorageQuota(db: Executor, tenantId: number, quota: number | null) {
  const rows = await db
    .update(tenants)
    .set({ storageQuotaBytes: quota })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id });
  return rows.length > 0;
}

/** Raises the tenant's agent limit to `atLeast` when it has a lower one (never lowers it). */
export async function raiseMaxAgents(db: Executor, tenantId: number, atLeast: number): Promise<void> {
  await db
    .update(tenants)
    .set({ maxAgents: atLeast })
    .where(and(eq(tenants.id, tenantId), isNotNull(tenants.maxAgents), lt(tenants.maxAgents, atLeast)));
}
