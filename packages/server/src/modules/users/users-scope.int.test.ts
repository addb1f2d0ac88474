import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '@outpost/contract/messages';
import type { AuditListResponse } from '@outpost/contract/audit';
import type { User, UserListResponse } from '@outpost/contract/users';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { addMember, createTenant } from '../tenants/tenants.service';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// SECURITY.md R2-9 (the user list) and R2-10 (the last administrator with access to all sites).
describe('members a site-limited administrator sees, and the last all-sites administrator', () => {
  let server: TestServer;
  let tenantId: number;
  let hq: number;
  let lon: number;
  let all: Awaited<ReturnType<TestServer['devSignIn']>>;

  beforeAll(async () => {
    server = await startTestServer();
    const { tenant } = await createTenant(server.database.db, {
      name: 'Scope Co',
      adminEmail: 'all@scope.example',
    });
    tenantId = tenant.id;
    all = await server.devSignIn('all@scope.example');
    const site = async (name: string, code: string) =>
      (
        await server.request<Envelope<{ id: number }>>('POST', '/api/customer/sites', {
          token: all.token,
          body: { site_name: name, site_code: code },
        })
      ).body.data.id;
    hq = await site('Head Office', 'HQ');
    lon = await site('London', 'LON');
  });
  afterAll(() => server.close());

  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  it('lists and finds only members whose access lies within the caller’s sites', async () => {
    const lonAdmin = await addMember(server.database.db, {
      tenantId,
      email: 'lon-admin@scope.example',
      role: 'tenant_admin',
      siteIds: [lon],
    });
    const lonUser = await addMember(server.database.db, {
      tenantId,
      email: 'lon-user@scope.example',
      siteIds: [lon],
    });
    const both = await addMember(server.database.db, {
      tenantId,
      email: 'both@scope.example',
      siteIds: [lon, hq],
    });
    const limited = (await server.devSignIn('lon-admin@scope.example')).token;

    const list = await call<UserListResponse>('GET', '/api/customer/users?limit=100', limited);
    expect(list.status).toBe(200);
    expect(list.body.data.data.map((u) => u.email).sort()).toEqual([
      'lon-admin@scope.example',
      'lon-user@scope.example',
    ]);
    expect(list.body.data.pagination.total).toBe(2);
    const hidden = await call<User>('GET', `/api/customer/users/${both.id}`, limited);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe(adminMessages.userNotFound);
    expect((await call('GET', `/api/customer/users/${all.user.id}`, limited)).status).toBe(404);
    expect(
      (await call('DELETE', '/api/customer/users', limited, { user_ids: [lonUser.id, both.id] })).status,
    ).toBe(404);
    expect((await call('GET', `/api/customer/users/${lonUser.id}`, limited)).status).toBe(200);
    // R2-9 (audit): the member's own sign-in is about their sites; the all-sites admin's is not
    const audit = await call<AuditListResponse>('GET', '/api/customer/audit?limit=100', limited);
    const logins = audit.body.data.data.filter((e) => e.action === 'Login').map((e) => e.user_email);
    expect(logins).toContain('lon-admin@scope.example');
    expect(logins).not.toContain('all@scope.example');
    // the all-sites administrator sees everyone
    const full = await call<UserListResponse>('GET', '/api/customer/users?limit=100', all.token);
    expect(full.body.data.pagination.total).toBe(4);
    expect(list.body.data.data.find((u) => u.email === 'lon-admin@scope.example')?.id).toBe(lonAdmin.id);
  });

  it('the last administrator with access to all sites can neither leave nor narrow themselves', async () => {
    // site-limited administrators remain (lon-admin), but nobody else could grant all-site access
    const del = await call('DELETE', `/api/customer/users/${all.user.id}`, all.token);
    expect(del.status).toBe(409);
    expect(del.body.error).toBe(adminMessages.lastAllSitesAdmin);
    const bulk = await call('DELETE', '/api/customer/users', all.token, {
      user_ids: [all.user.id, all.user.id, all.user.id],
    });
    expect(bulk.status).toBe(409);
    expect(bulk.body.error).toBe(adminMessages.lastAllSitesAdmin);
    const demote = await call('PUT', `/api/customer/users/${all.user.id}`, all.token, { role: 'user' });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toBe(adminMessages.lastAllSitesAdmin);
    const narrow = await call('PUT', `/api/customer/users/${all.user.id}`, all.token, {
      site_access_type: 'specific',
      site_ids: [hq],
    });
    expect(narrow.status).toBe(409);
    expect(narrow.body.error).toBe(adminMessages.lastAllSitesAdmin);
    expect((await call('GET', '/api/customer/auth/profile', all.token)).status).toBe(200);

    // with a second all-sites administrator, the first may narrow themselves
    const second = await call<User>('POST', '/api/customer/users', all.token, {
      email: 'second-all@scope.example',
      role: 'tenant_admin',
    });
    expect(second.status).toBe(200);
    const ok = await call<User>('PUT', `/api/customer/users/${all.user.id}`, all.token, {
      site_access_type: 'specific',
      site_ids: [hq],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.site_access_type).toBe('specific');
  });
});
