import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AuditListResponse, AuditStats } from '@outpost/contract/audit';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';
import { addMember } from '../tenants/tenants.service';
import { insertDevice } from '../../../test/support/devices';

// The audit log of a site-limited administrator (SECURITY.md R2-9): entries about their sites
// only. Every entry here is written by a real request; the list, its search and filters, and the
// stats all apply the same rule.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('audit log scoped to the caller’s sites', () => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  let lonAdmin: string;
  let lonAdminId: number;
  let tenantId: number;
  let hq: number;
  let lon: number;
  const ids: Record<string, number> = {};

  const call = <T>(method: string, url: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, url, { token, body });
  const list = async (token: string, query = '') => {
    const res = await call<AuditListResponse>('GET', `/api/customer/audit?limit=100${query}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const summary = (page: AuditListResponse) =>
    page.data.map((e) => `${e.action} ${e.resource_type}:${e.resource_id ?? '-'}`).sort();

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    const signIn = await server.devSignIn('admin@acme.example');
    admin = signIn.token;
    adminId = signIn.user.id;
    await addMember(server.database.db, {
      tenantId,
      email: 'lon-admin@acme.example',
      role: 'tenant_admin',
      siteIds: [lon],
    });
    const lonSignIn = await server.devSignIn('lon-admin@acme.example');
    lonAdmin = lonSignIn.token;
    lonAdminId = lonSignIn.user.id;
    // Entries from before this test (demo seeding, sign-ins) are not what it is about.
    await server.database.db.delete(auditLogs).where(eq(auditLogs.tenantId, tenantId));

    const device = async (name: string, siteId: number | null) =>
      (await insertDevice(server, { tenantId, hostname: name, siteId })).id;
    ids.hqPc = await device('HQ-SECRET-PC', hq);
    ids.lonPc = await device('LON-PC', lon);
    ids.noSitePc = await device('NOSITE-PC', null);
    ids.hqBulk = await device('HQ-BULK', hq);
    ids.lonBulk = await device('LON-BULK', lon);

    // The all-sites administrator acts across the tenant.
    for (const id of [ids.hqPc, ids.lonPc, ids.noSitePc]) {
      expect((await call('DELETE', `/api/customer/devices/${id}`, admin)).status).toBe(200);
    }
    const bulk = await call('DELETE', '/api/customer/devices', admin, {
      device_ids: [ids.hqBulk, ids.lonBulk],
    });
    expect(bulk.status).toBe(200);
    for (const [key, siteId] of [
      ['hqSite', hq],
      ['lonSite', lon],
    ] as const) {
      const res = await call('PUT', `/api/customer/sites/${siteId}`, admin, {
        description: `${key} updated`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (const [key, siteId] of [
      ['hqToken', hq],
      ['lonToken', lon],
      ['anyToken', null],
    ] as const) {
      const res = await call<{ id: number }>('POST', '/api/customer/agents/enrollment-tokens', admin, {
        name: key,
        site_id: siteId,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids[key] = res.body.data.id;
    }
    // The London administrator's own cleanup (nothing to remove) is about London.
    const cleanup = await call('POST', '/api/customer/devices/cleanup', lonAdmin, { offline_days: 30 });
    expect(cleanup.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const londonView = () => [
    `Agent Cleanup device:-`,
    `Create Enrollment Token enrollment_token:${ids.lonToken}`,
    `Delete Device device:${ids.lonBulk}`,
    `Delete Device device:${ids.lonPc}`,
    `Update Site site:${lon}`,
  ];

  it('a site-limited administrator reads only the entries about their sites', async () => {
    const page = await list(lonAdmin);
    expect(summary(page)).toEqual(londonView().sort());
    expect(page.pagination.total).toBe(5);
    const text = JSON.stringify(page);
    for (const hidden of ['HQ-SECRET-PC', 'HQ-BULK', 'NOSITE-PC', 'hqSite', 'hqToken', 'anyToken']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('the all-sites administrator reads every entry, tenant-wide ones included', async () => {
    const page = await list(admin);
    expect(summary(page)).toEqual(
      [
        ...londonView(),
        `Bulk Delete Devices device:-`,
        `Create Enrollment Token enrollment_token:${ids.anyToken}`,
        `Create Enrollment Token enrollment_token:${ids.hqToken}`,
        `Delete Device device:${ids.hqBulk}`,
        `Delete Device device:${ids.hqPc}`,
        `Delete Device device:${ids.noSitePc}`,
        `Update Site site:${hq}`,
      ].sort(),
    );
  });

  it('search, filters and the user filter cannot reach a hidden entry', async () => {
    expect((await list(lonAdmin, '&search=HQ-SECRET')).pagination.total).toBe(0);
    expect((await list(admin, '&search=HQ-SECRET')).pagination.total).toBe(1);
    expect((await list(lonAdmin, '&action=Bulk%20Delete%20Devices')).pagination.total).toBe(0);
    expect(summary(await list(lonAdmin, `&user_id=${adminId}`))).toEqual(
      londonView()
        .filter((e) => !e.startsWith('Agent Cleanup'))
        .sort(),
    );
    expect(summary(await list(lonAdmin, '&resource_type=site'))).toEqual([`Update Site site:${lon}`]);
  });

  it('the stats count only what the caller may read', async () => {
    const lonStats = await call<AuditStats>('GET', '/api/customer/audit/stats?days=7', lonAdmin);
    expect(lonStats.status).toBe(200);
    expect(lonStats.body.data.summary.total_actions).toBe(5);
    expect(lonStats.body.data.activity_by_day.reduce((n, d) => n + d.activity_count, 0)).toBe(5);
    expect(lonStats.body.data.top_users.map((u) => [u.user_email, u.action_count])).toEqual([
      ['admin@acme.example', 4],
      ['lon-admin@acme.example', 1],
    ]);
    const all = await call<AuditStats>('GET', '/api/customer/audit/stats?days=7', admin);
    expect(all.body.data.summary.total_actions).toBe(12);
  });

  it('a site-limited administrator with no sites reads nothing', async () => {
    await addMember(server.database.db, {
      tenantId,
      email: 'nowhere-admin@acme.example',
      role: 'tenant_admin',
      siteIds: [],
    });
    const nowhere = (await server.devSignIn('nowhere-admin@acme.example')).token;
    expect((await list(nowhere)).pagination.total).toBe(0);
  });

  it('the migration gives existing entries the sites of the device, site or user they are about', async () => {
    const db = server.database.db;
    const before = await db
      .select({ id: auditLogs.id, siteIds: auditLogs.siteIds })
      .from(auditLogs)
      .where(eq(auditLogs.tenantId, tenantId));
    // An entry about a device still enrolled, as older versions wrote it (no sites).
    const live = await insertDevice(server, { tenantId, hostname: 'LEGACY', siteId: lon });
    await db.insert(auditLogs).values([
      { tenantId, action: 'Update Device', resourceType: 'device', resourceId: String(live.id) },
      { tenantId, action: 'Update Site', resourceType: 'site', resourceId: String(hq) },
      { tenantId, action: 'Login', resourceType: 'user', resourceId: String(adminId) },
      { tenantId, action: 'Login', resourceType: 'user', resourceId: String(lonAdminId) },
    ]);
    await db.update(auditLogs).set({ siteIds: null }).where(eq(auditLogs.tenantId, tenantId));
    const file = path.join(import.meta.dirname, '../../db/migrations/0014_audit_site_scope.sql');
    const statements = fs.readFileSync(file, 'utf8').split('--> statement-breakpoint').slice(1);
    for (const statement of statements) {
      await db.execute(sql.raw(statement));
    }
    const after = await db
      .select({ action: auditLogs.action, resourceId: auditLogs.resourceId, siteIds: auditLogs.siteIds })
      .from(auditLogs)
      .where(eq(auditLogs.tenantId, tenantId));
    const of = (action: string, resourceId: string) =>
      after.find((e) => e.action === action && e.resourceId === resourceId)?.siteIds;
    expect(of('Update Device', String(live.id))).toEqual([lon]);
    expect(of('Update Site', String(hq))).toEqual([hq]);
    expect(of('Update Site', String(lon))).toEqual([lon]);
    expect(of('Login', String(lonAdminId))).toEqual([lon]);
    expect(of('Create Enrollment Token', String(ids.hqToken))).toEqual([hq]);
    // an all-sites user, a deleted device, a token of no site: tenant-wide
    expect(of('Login', String(adminId))).toBeNull();
    expect(of('Delete Device', String(ids.hqPc))).toBeNull();
    expect(of('Create Enrollment Token', String(ids.anyToken))).toBeNull();
    expect(before.length).toBeGreaterThan(0);
  });
});
