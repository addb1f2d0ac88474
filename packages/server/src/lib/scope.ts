import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { RequestContext } from './context';

// The one tenant and site scope of every query (docs/product/administration.md#site-scope). Queries take the caller's
// scope and build their WHERE clause from these helpers instead of writing `tenant_id = …` by
// hand, so a new query cannot forget the site rule and authorisation has one place to look.

/** Whose rows: the caller's tenant. */
export type TenantScope = Pick<RequestContext, 'tenantId'>;
/** Whose rows and which sites: tenant, and the assigned sites for site_access_type 'specific'. */
export type Scope = Pick<RequestContext, 'tenantId' | 'siteAccessType' | 'siteIds'>;

type TenantOwned = { tenantId: AnyColumn };
type SiteOwned = TenantOwned & { siteId: AnyColumn };

const never = sql`false`;

/** A scope that holds only a tenant id (system work such as enrolment, where no person acts). */
export const tenantOnly = (tenantId: number): TenantScope => ({ tenantId });

/** True when the caller sees only the sites assigned to them. */
export const isSiteLimited = (scope: Pick<Scope, 'siteAccessType'>): boolean =>
  scope.siteAccessType === 'specific';

/** Rows of the caller's tenant. */
export function inTenant(table: TenantOwned, scope: TenantScope): SQL {
  return eq(table.tenantId, scope.tenantId);
}

/**
 * Rows of the caller's tenant and, for a site-limited caller, of their sites only. A row without
 * a site is then hidden too: it belongs to no site they were given.
 */
export function inScope(table: SiteOwned, scope: Scope): SQL {
  const tenant = inTenant(table, scope);
  if (!isSiteLimited(scope)) {
    return tenant;
  }
  if (scope.siteIds.length === 0) {
    return and(tenant, never) ?? never;
  }
  return and(tenant, inArray(table.siteId, scope.siteIds)) ?? never;
}

/**
 * inScope for records a site may own or that are shared with all sites (site null), such as
 * packages: a site-limited caller sees the shared ones and their sites' ones (SECURITY.md R2-5).
 */
export function inScopeOrShared(table: SiteOwned, scope: Scope): SQL {
  const tenant = inTenant(table, scope);
  if (!isSiteLimited(scope)) {
    return tenant;
  }
  const shared = isNull(table.siteId);
  const mine = scope.siteIds.length === 0 ? shared : or(shared, inArray(table.siteId, scope.siteIds));
  return and(tenant, mine) ?? never;
}

/** inTenant for a statement built once and run many times: the tenant is the placeholder `tenantId`. */
export function inTenantPlaceholders(table: TenantOwned): SQL {
  return eq(table.tenantId, sql.placeholder('tenantId'));
}

/**
 * inScope for a statement built once and run many times (lib/db statementCache): the tenant and
 * the caller's sites are placeholders (`tenantId`, `siteIds`, filled by scopeValues), so the text
 * depends only on whether the caller is site-limited. No sites matches nothing, as in inScope.
 */
export function inScopePlaceholders(table: SiteOwned, siteLimited: boolean): SQL {
  const tenant = inTenantPlaceholders(table);
  if (!siteLimited) {
    return tenant;
  }
  return and(tenant, sql`${table.siteId} = any(${sql.placeholder('siteIds')}::int[])`) ?? never;
}

/** The values of inScopePlaceholders' placeholders for a caller. */
export const scopeValues = (scope: Scope) => ({ tenantId: scope.tenantId, siteIds: scope.siteIds });

/** The sites table itself: the caller's tenant, and for a site-limited caller their sites. */
export function sitesInScope(table: { tenantId: AnyColumn; id: AnyColumn }, scope: Scope): SQL {
  return inScope({ tenantId: table.tenantId, siteId: table.id }, scope);
}

/** The same rule as inScope for one row already loaded (a live event, a subscription). */
export function canSeeSite(scope: Pick<Scope, 'siteAccessType' | 'siteIds'>, siteId: number | null): boolean {
  return !isSiteLimited(scope) || (siteId !== null && scope.siteIds.includes(siteId));
}

/**
 * Records that name the sites they are about in an int[] column (audit entries): every one for a
 * caller of all sites; for a site-limited caller only those about their sites alone. Null (about
 * the whole tenant) or naming any other site is hidden, as a row without a site is in inScope.
 */
export function aboutOnlyScopeSites(table: TenantOwned & { siteIds: AnyColumn }, scope: Scope): SQL {
  const tenant = inTenant(table, scope);
  if (!isSiteLimited(scope)) {
    return tenant;
  }
  if (scope.siteIds.length === 0) {
    return and(tenant, never) ?? never;
  }
  return (
    and(
      tenant,
      sql`${table.siteIds} is not null`,
      sql`${table.siteIds} <@ ${sql.param(scope.siteIds)}::int[]`,
    ) ?? never
  );
}
