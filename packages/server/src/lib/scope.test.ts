import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { devices, files } from '../db/schema/index';
import { firstOrThrow } from './db';
import { canSeeSite, inScope, inTenant, tenantOnly } from './scope';

const dialect = new PgDialect();
const render = (q: Parameters<PgDialect['sqlToQuery']>[0]) => {
  const { sql, params } = dialect.sqlToQuery(q);
  return { sql, params };
};

describe('the scope helper', () => {
  const all = { tenantId: 7, siteAccessType: 'all' as const, siteIds: [] };
  const limited = { tenantId: 7, siteAccessType: 'specific' as const, siteIds: [3, 4] };
  const noSites = { tenantId: 7, siteAccessType: 'specific' as const, siteIds: [] };

  it('scopes tenant-owned rows to the tenant', () => {
    expect(render(inTenant(files, tenantOnly(7)))).toEqual({ sql: '"files"."tenant_id" = $1', params: [7] });
  });

  it('adds the sites of a site-limited caller, and nothing at all when they have none', () => {
    expect(render(inScope(devices, all))).toEqual({ sql: '"devices"."tenant_id" = $1', params: [7] });
    expect(render(inScope(devices, limited))).toEqual({
      sql: '("devices"."tenant_id" = $1 and "devices"."site_id" in ($2, $3))',
      params: [7, 3, 4],
    });
    expect(render(inScope(devices, noSites)).sql).toBe('("devices"."tenant_id" = $1 and false)');
  });

  it('applies the same rule to one loaded row', () => {
    expect(canSeeSite(all, null)).toBe(true);
    expect(canSeeSite(limited, 3)).toBe(true);
    expect(canSeeSite(limited, 5)).toBe(false);
    expect(canSeeSite(limited, null)).toBe(false);
  });
});

describe('firstOrThrow', () => {
  it('returns the first row, and names the statement when there is none', () => {
    expect(firstOrThrow([{ id: 1 }, { id: 2 }], 'insert thing')).toEqual({ id: 1 });
    expect(() => firstOrThrow([], 'insert thing')).toThrow('insert thing returned no row');
  });
});
