import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { adminMessages, messages } from '@outpost/contract/messages';
import type { DeleteSitesResponse, Site, SiteListResponse } from '@outpost/contract/sites';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, devices } from '../../db/schema/index';
import { hashSecret } from '../agents/agent-secrets';
import { addMember } from '../tenants/tenants.service';
import { updateSite } from './sites.queries';
import { DEMO } from '../demo/demo.seed';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('sites API', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let siteIds: number[];

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<Envelope<T>>(method, path, { token, body });

  async function insertDevice(siteId: number | null, hostname: string) {
    const [row] = await server.database.db
      .insert(devices)
      .values({
        tenantId: acme,
        siteId,
        hostname,
        deviceGuid: crypto.randomUUID(),
        secretHash: hashSecret(crypto.randomBytes(16).toString('hex')),
        status: 'offline',
        osType: 'windows',
      })
      .returning({ id: devices.id });
    return row!.id;
  }

  async function lastAudit(action: string, resourceId: number) {
    const [row] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, action), eq(auditLogs.resourceId, String(resourceId))))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    return row;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    siteIds = demo.siteIds;
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses each bad site with the spec's message, word for word", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ site_name: '', site_code: 'AB' }, 'Site name and code are required'],
      [{ site_name: 'Name', site_code: '' }, 'Site name and code are required'],
      [{ site_name: 'Name' }, 'Site name and code are required'],
      [{ site_name: 'Name', site_code: 'TOOLONG' }, 'Site code must be 6 characters or less'],
      [{ site_name: 'Name', site_code: 'ab1' }, 'Site code must contain only uppercase letters and numbers'],
      [{ site_name: 'Name', site_code: 'A-1' }, 'Site code must contain only uppercase letters and numbers'],
      [{ site_name: 'Name', site_code: 'OK1', timezone: 'Mars/Olympus' }, adminMessages.timezoneInvalid],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/customer/sites', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const taken = await call('POST', '/api/customer/sites', { site_name: 'Again', site_code: 'HQ' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(adminMessages.siteCodeTaken('HQ'));
  });

  it('creates a site with empty optional fields stored as null and a listed timezone; audits it', async () => {
    const res = await call<Site>('POST', '/api/customer/sites', {
      site_name: '  Berlin Lab ',
      site_code: 'BER1',
      description: '',
      city: 'Berlin',
      country: '  ',
      timezone: 'Europe/Berlin',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      site_name: 'Berlin Lab',
      site_code: 'BER1',
      description: null,
      address: null,
      city: 'Berlin',
      country: null,
      timezone: 'Europe/Berlin',
      device_count: 0,
    });
    const entry = await lastAudit('Create Site', res.body.data.id);
    expect(entry?.resourceType).toBe('site');
    expect(JSON.parse(entry!.newValues!)).toEqual({
      site_name: 'Berlin Lab',
      site_code: 'BER1',
      description: null,
      address: null,
      city: 'Berlin',
      state: null,
      country: null,
      postal_code: null,
      timezone: 'Europe/Berlin',
    });
    // The same code in another tenant is fine.
    expect(
      (await call('POST', '/api/customer/sites', { site_name: 'B', site_code: 'BER1' }, globexAdmin)).status,
    ).toBe(200);
  });

  it('lists with device_count, search and pagination; a site-limited member sees only their sites', async () => {
    await insertDevice(siteIds[0]!, 'hq-1');
    await insertDevice(siteIds[0]!, 'hq-2');
    await insertDevice(siteIds[1]!, 'lon-1');
    const list = await call<SiteListResponse>('GET', '/api/customer/sites?limit=100');
    expect(list.status).toBe(200);
    const byCode = Object.fromEntries(list.body.data.data.map((s) => [s.site_code, s.device_count]));
    expect(byCode).toMatchObject({ HQ: 2, LON1: 1, DC1: 0, BER1: 0 });
    expect(list.body.data.data.some((s) => s.site_name === 'B')).toBe(false);

    const search = await call<SiteListResponse>('GET', '/api/customer/sites?search=london');
    expect(search.body.data.data.map((s) => s.site_code)).toEqual(['LON1']);
    const page = await call<SiteListResponse>('GET', '/api/customer/sites?limit=2&page=2');
    expect(page.body.data.data).toHaveLength(2);
    expect(page.body.data.pagination).toMatchObject({ total: 4, totalPages: 2 });

    // Any member reads; a site-limited one only their sites; another tenant's site is 404.
    expect(
      (await call<SiteListResponse>('GET', '/api/customer/sites', undefined, tech)).body.data.pagination
        .total,
    ).toBe(4);
    await addMember(server.database.db, {
      tenantId: acme,
      email: 'lim@acme.example',
      siteIds: [siteIds[1]!],
    });
    const lim = (await server.devSignIn('lim@acme.example')).token;
    const limited = await call<SiteListResponse>('GET', '/api/customer/sites', undefined, lim);
    expect(limited.body.data.data.map((s) => s.site_code)).toEqual(['LON1']);
    expect((await call('GET', `/api/customer/sites/${siteIds[0]}`, undefined, lim)).status).toBe(404);
    expect((await call('GET', `/api/customer/sites/${siteIds[0]}`, undefined, globexAdmin)).status).toBe(404);
  });

  it('writes are for administrators; another tenant cannot change or delete a site', async () => {
    for (const [method, path, body] of [
      ['POST', '/api/customer/sites', { site_name: 'X', site_code: 'X' }],
      ['PUT', `/api/customer/sites/${siteIds[0]}`, { site_name: 'X' }],
      ['DELETE', `/api/customer/sites/${siteIds[0]}`, undefined],
      ['DELETE', '/api/customer/sites', { site_ids: [siteIds[0]] }],
    ] as const) {
      const res = await call(method, path, body, tech);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe(messages.adminOnly);
    }
    expect(
      (await call('PUT', `/api/customer/sites/${siteIds[0]}`, { site_name: 'X' }, globexAdmin)).status,
    ).toBe(404);
    expect((await call('DELETE', `/api/customer/sites/${siteIds[0]}`, undefined, globexAdmin)).status).toBe(
      404,
    );
  });

  it('updates a site with old and new values in the audit entry; code stays unique', async () => {
    const before = (await call<SiteListResponse>('GET', '/api/customer/sites?search=DC1')).body.data.data[0]!;
    const res = await call<Site>('PUT', `/api/customer/sites/${before.id}`, {
      site_name: 'Distribution Centre',
      site_code: 'DC2',
      city: '',
      timezone: 'America/Denver',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      site_name: 'Distribution Centre',
      site_code: 'DC2',
      city: null,
      country: 'United States',
      timezone: 'America/Denver',
    });
    const entry = await lastAudit('Update Site', before.id);
    expect(JSON.parse(entry!.oldValues!)).toMatchObject({
      site_name: 'Distribution Center',
      site_code: 'DC1',
      city: 'Chicago',
      timezone: 'America/Chicago',
    });
    expect(JSON.parse(entry!.newValues!)).toMatchObject({
      site_name: 'Distribution Centre',
      site_code: 'DC2',
      city: null,
      country: 'United States',
      timezone: 'America/Denver',
    });
    const clash = await call('PUT', `/api/customer/sites/${before.id}`, { site_code: 'HQ' });
    expect(clash.status).toBe(409);
    // A code taken between the service's check and its update (a concurrent change) is reported
    // by the query, which the service answers with the same 409.
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    expect(await updateSite(server.database.db, scope, before.id, { siteCode: 'HQ' })).toBe(false);
    const bad = await call('PUT', `/api/customer/sites/${before.id}`, { site_code: 'dc' });
    expect(bad.body.error).toBe('Site code must contain only uppercase letters and numbers');
  });

  it('deleting sites keeps their devices, unassigned, and says how many', async () => {
    const hq = siteIds[0]!;
    const one = await call<DeleteSitesResponse>('DELETE', `/api/customer/sites/${hq}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      deleted: 1,
      site_ids: [hq],
      devices_unassigned: 2,
      message: 'Deleted 1 site; 2 devices are now unassigned',
    });
    const orphans = await server.database.db
      .select({ siteId: devices.siteId })
      .from(devices)
      .where(and(eq(devices.tenantId, acme), inArray(devices.hostname, ['hq-1', 'hq-2'])));
    expect(orphans).toEqual([{ siteId: null }, { siteId: null }]);
    const entry = await lastAudit('Delete Site', hq);
    expect(entry?.details).toBe('Deleted site Headquarters (HQ); 2 devices unassigned');
    expect(JSON.parse(entry!.oldValues!)).toMatchObject({ site_code: 'HQ', device_count: 2 });

    const missing = await call('DELETE', '/api/customer/sites', { site_ids: [siteIds[1], 999999] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(adminMessages.sitesNotFound([999999]));
    const many = await call<DeleteSitesResponse>('DELETE', '/api/customer/sites', {
      site_ids: [siteIds[1], siteIds[2]],
    });
    expect(many.body.data).toMatchObject({ deleted: 2, devices_unassigned: 1 });
    expect(await lastAudit('Delete Site', siteIds[2]!)).toBeDefined();
  });
});
