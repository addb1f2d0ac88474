import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Site, SiteListFilters } from '@outpost/contract/sites';
import { devices, sites } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { inTenant, sitesInScope } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Sites of the caller's tenant; a site-limited caller sees and changes only their own sites.
// Every statement is scoped with lib/scope.ts.

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Devices assigned to the site (all of a site's devices are in scope for whoever sees the site).
 * The outer columns are written out with their table: Drizzle leaves them unqualified in a
 * single-table select, where "id" would be the subquery's own.
 */
const outerSite = (column: string) => sql`${sql.identifier('sites')}.${sql.identifier(column)}`;
const deviceCount = sql<number>`(select count(*)::int from ${devices} where ${devices.siteId} = ${outerSite('id')} and ${devices.tenantId} = ${outerSite('tenant_id')})`;

export type SiteRow = typeof sites.$inferSelect & { deviceCount: number };

export type SiteFields = Pick<
  typeof sites.$inferInsert,
  | 'siteName'
  | 'siteCode'
  | 'description'
  | 'address'
  | 'city'
  | 'state'
  | 'country'
  | 'postalCode'
  | 'timezone'
>;

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    site_name: row.siteName,
    site_code: row.siteCode,
    description: row.description,
    address: row.address,
    city: row.city,
    state: row.state,
    country: row.country,
    postal_code: row.postalCode,
    timezone: row.timezone,
    device_count: row.deviceCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function listWhere(scope: Scope, f: SiteListFilters): SQL {
  const conditions: (SQL | undefined)[] = [sitesInScope(sites, scope)];
  if (f.search) {
    const pattern = likePattern(f.search);
    conditions.push(
      or(
        ilike(sites.siteName, pattern),
        ilike(sites.siteCode, pattern),
        ilike(sites.city, pattern),
        ilike(sites.country, pattern),
        ilike(sites.description, pattern),
      ),
    );
  }
  return and(...conditions) ?? sql`false`;
}

export async function listSites(
  db: Reader,
  scope: Scope,
  f: SiteListFilters,
): Promise<{ rows: SiteRow[]; total: number }> {
  const where = listWhere(scope, f);
  const [totalRow] = await db.select({ n: count() }).from(sites).where(where);
  const rows = await db
    .select({ site: sites, deviceCount })
    .from(sites)
    .where(where)
    .orderBy(desc(sites.createdAt), desc(sites.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows: rows.map((r) => ({ ...r.site, deviceCount: r.deviceCount })), total: totalRow?.n ?? 0 };
}

/** Sites of these ids the caller may see; `lock` holds their rows until the transaction ends. */
export async function findSites(
  db: Executor,
  scope: Scope,
  ids: number[],
  opts: { lock?: boolean } = {},
): Promise<SiteRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const query = db
    .select({ site: sites, deviceCount })
    .from(sites)
    .where(and(sitesInScope(sites, scope), inArray(sites.id, ids)))
    .orderBy(asc(sites.id));
  const rows = opts.lock ? await query.for('update', { of: sites }) : await query;
  return rows.map((r) => ({ ...r.site, deviceCount: r.deviceCount }));
}

/** The tenant's site with this code (codes are unique in the whole tenant, whoever asks). */
export async function findSiteIdByCode(db: Reader, scope: TenantScope, code: string): Promise<number | null> {
  const [row] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(inTenant(sites, scope), eq(sites.siteCode, code)))
    .limit(1);
  return row?.id ?? null;
}

/** Inserts a site of the caller's tenant; null when the code is taken. */
export async function insertSite(
  tx: Executor,
  scope: TenantScope,
  values: SiteFields,
): Promise<number | null> {
  const [row] = await tx
    .insert(sites)
    .values({ ...values, tenantId: scope.tenantId })
    .onConflictDoNothing()
    .returning({ id: sites.id });
  return row?.id ?? null;
}

/** A unique constraint refused the statement (PostgreSQL 23505; Drizzle may wrap the driver's error). */
const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Updates a site; false when the new code is taken (a concurrent change won the race). */
export async function updateSite(
  tx: Executor,
  scope: Scope,
  id: number,
  patch: Partial<SiteFields>,
): Promise<boolean> {
  try {
    await tx
      .update(sites)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(sitesInScope(sites, scope), eq(sites.id, id)));
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) {
      return false;
    }
    throw err;
  }
}

/**
 * Deletes the sites; their devices stay and become unassigned (the foreign key sets site_id to
 * null), as do enrolment tokens for them; user assignments to them go. Returns the deleted ids.
 */
export async function deleteSites(tx: Executor, scope: Scope, ids: number[]): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await tx
    .delete(sites)
    .where(and(sitesInScope(sites, scope), inArray(sites.id, ids)))
    .returning({ id: sites.id });
  return rows.map((r) => r.id);
}

/** New sites, in the order given (the demo tenant's); their ids in that order. */
export function insertSites(db: Executor, values: (typeof sites.$inferInsert)[]) {
  return db.insert(sites).values(values).returning({ id: sites.id });
}
