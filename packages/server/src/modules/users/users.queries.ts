import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { User, UserListFilters } from '@outpost/contract/users';
import { sites, users, userSites } from '../../db/schema/index';
import { arrayParam } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inTenant, isSiteLimited, sitesInScope } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Memberships of the caller's tenant (a users row is one e-mail's membership of one tenant) and
// their site assignments. Every statement is scoped with lib/scope.ts.

/** Escapes % and _ so a search matches them literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// The outer users.id is written out with its table: Drizzle leaves columns unqualified in a
// single-table select.
const assignedSiteIds = sql<string>`coalesce((select string_agg(${userSites.siteId}::text, ',' order by ${userSites.siteId}) from ${userSites} where ${userSites.userId} = ${sql.identifier('users')}.${sql.identifier('id')}), '')`;

const userColumns = {
  id: users.id,
  email: users.email,
  identityId: users.identityId,
  name: users.name,
  role: users.role,
  siteAccessType: users.siteAccessType,
  assignedSiteIds,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

export type UserRow = {
  id: number;
  email: string;
  /** null while the invitation is open (SECURITY.md R2-1) */
  identityId: number | null;
  name: string | null;
  role: User['role'];
  siteAccessType: string;
  assignedSiteIds: string;
  createdAt: Date;
  updatedAt: Date;
};

export function toUser(row: UserRow): User {
  const access = row.siteAccessType;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.identityId === null ? 'invited' : 'active',
    site_access_type: access === 'all' || access === 'specific' ? access : 'none',
    assigned_site_ids: row.assignedSiteIds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The members a caller may see (SECURITY.md R2-9): the whole tenant, or for a site-limited caller
 * the members whose access lies within the caller's sites (the ones they could manage). Others,
 * all-sites members included, are not found, like a device of another site.
 */
export function membersInScope(scope: Scope): SQL {
  const tenant = inTenant(users, scope);
  if (!isSiteLimited(scope)) {
    return tenant;
  }
  const own = arrayParam(scope.siteIds, 'int4');
  const outside = sql`exists (select 1 from ${userSites} where ${userSites.userId} = ${users.id} and not (${userSites.siteId} = any(${own})))`;
  return and(tenant, eq(users.siteAccessType, 'specific'), sql`not ${outside}`) ?? tenant;
}

function listWhere(scope: Scope, f: UserListFilters): SQL {
  const conditions: (SQL | undefined)[] = [membersInScope(scope)];
  if (f.search) {
    const pattern = likePattern(f.search);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
  }
  if (f.role) {
    conditions.push(eq(users.role, f.role));
  }
  return and(...conditions) ?? sql`true`;
}

export async function listUsers(
  db: Reader,
  scope: Scope,
  f: UserListFilters,
): Promise<{ rows: UserRow[]; total: number }> {
  const where = listWhere(scope, f);
  const [totalRow] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select(userColumns)
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows, total: totalRow?.n ?? 0 };
}

/** Users of the tenant with these ids; `lock` holds their rows until the transaction ends. */
export async function findUsers(
  db: Executor,
  scope: Scope,
  ids: number[],
  opts: { lock?: boolean } = {},
): Promise<UserRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const query = db
    .select(userColumns)
    .from(users)
    .where(and(membersInScope(scope), inArray(users.id, ids)))
    .orderBy(asc(users.id));
  return opts.lock ? query.for('update', { of: users }) : query;
}

/** The tenant's member with this e-mail (stored lower-case), if any. */
export async function findUserIdByEmail(
  db: Reader,
  scope: TenantScope,
  email: string,
): Promise<number | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inTenant(users, scope), eq(users.email, email)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The tenant's administrators, their rows locked until the transaction ends: two requests that
 * each remove an administrator take turns, and the second sees the first's change.
 */
export async function lockAdmins(
  tx: Executor,
  scope: TenantScope,
): Promise<{ id: number; siteAccessType: string }[]> {
  return tx
    .select({ id: users.id, siteAccessType: users.siteAccessType })
    .from(users)
    .where(and(inTenant(users, scope), eq(users.role, 'tenant_admin')))
    .orderBy(asc(users.id))
    .for('update');
}

/** Which of these site ids are sites the caller may see (their tenant, and their sites if limited). */
export async function findSiteIdsInScope(db: Reader, scope: Scope, ids: number[]): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(sitesInScope(sites, scope), inArray(sites.id, ids)));
  return rows.map((r) => r.id);
}

/** Inserts a membership of the caller's tenant; null when the e-mail is already a member. */
export async function insertUser(
  tx: Executor,
  scope: TenantScope,
  values: Pick<typeof users.$inferInsert, 'email' | 'name' | 'role' | 'siteAccessType'>,
): Promise<number | null> {
  const [row] = await tx
    .insert(users)
    .values({ ...values, tenantId: scope.tenantId })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return row?.id ?? null;
}

/** A unique constraint refused the statement (PostgreSQL 23505; Drizzle may wrap the driver's error). */
const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Updates a member; false when the new e-mail is taken (a concurrent change won the race). */
export async function updateUser(
  tx: Executor,
  scope: TenantScope,
  id: number,
  patch: Partial<Pick<typeof users.$inferInsert, 'email' | 'name' | 'role' | 'siteAccessType'>>,
): Promise<boolean> {
  try {
    await tx
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(inTenant(users, scope), eq(users.id, id)));
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) {
      return false;
    }
    throw err;
  }
}

/** Replaces a user's site assignments (the user was found in the caller's tenant first). */
export async function replaceUserSites(tx: Executor, userId: number, siteIds: number[]): Promise<void> {
  await tx.delete(userSites).where(eq(userSites.userId, userId));
  if (siteIds.length > 0) {
    await tx.insert(userSites).values(siteIds.map((siteId) => ({ userId, siteId })));
  }
}

export async function deleteUsers(tx: Executor, scope: TenantScope, ids: number[]): Promise<number[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await tx
    .delete(users)
    .where(and(inTenant(users, scope), inArray(users.id, ids)))
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}
