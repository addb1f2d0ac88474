import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  GroupDetail,
  GroupListResponse,
  GroupMembersChangeResponse,
  GroupMembersResponse,
  GroupPreviewResponse,
} from '@outpost/contract/groups';
import { groupMessages, MAX_GROUP_CONDITIONS } from '@outpost/contract/groups';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { auditLogs } from '../../db/schema/index';
import { addMember } from '../tenants/tenants.service';

// docs/product/device-sets.md#groups "Who may do what": owner scope, site scope on every route,
// another tenant's group not found, the filter's input checked.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const API = '/api/customer/groups';

describe('device groups: routes and scope', () => {
  let server: TestServer;
  let admin: string, tech: string, limited: string, globex: string;
  let tenantId: number;
  let hq: number, lon: number;
  const dev = {} as Record<'hq1' | 'hq2' | 'lon1', number>;

  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  async function create(token: string, body: Record<string, unknown>) {
    const res = await call<GroupDetail>('POST', API, token, {
      name: `G ${Math.random().toString(36).slice(2, 7)}`,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  const members = async (id: number, token: string, query = '') =>
    (await call<GroupMembersResponse>('GET', `${API}/${id}/members${query}`, token)).body.data;

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, { tenantId, email: 'lon-only@acme.example', siteIds: [lon] });
    limited = (await server.devSignIn('lon-only@acme.example')).token;
    dev.hq1 = (await insertDevice(server, { tenantId, siteId: hq, hostname: 'grp-hq-1' })).id;
    dev.hq2 = (
      await insertDevice(server, { tenantId, siteId: hq, hostname: 'grp-hq-2', osType: 'linux' })
    ).id;
    dev.lon1 = (await insertDevice(server, { tenantId, siteId: lon, hostname: 'grp-lon-1' })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts and lists only the members the caller may see, and audits member changes', async () => {
    const group = await create(admin, { kind: 'static', description: 'Pilot devices' });
    const added = await call<GroupMembersChangeResponse>('POST', `${API}/${group.id}/members`, admin, {
      device_ids: [dev.hq1, dev.lon1],
    });
    expect(added.body.data).toEqual({ changed: 2, member_count: 2 });
    const list = async (token: string) =>
      (await call<GroupListResponse>('GET', `${API}?limit=200`, token)).body.data.data.find(
        (g) => g.id === group.id,
      );
    expect((await list(admin))?.member_count).toBe(2);
    expect((await list(limited))?.member_count).toBe(1);
    expect((await list(limited))?.can_edit).toBe(false);
    expect((await members(group.id, limited)).data.map((m) => m.hostname)).toEqual(['grp-lon-1']);
    expect((await members(group.id, admin, '?search=HQ-1')).data.map((m) => m.id)).toEqual([dev.hq1]);
    const page = await members(group.id, admin, '?limit=1&page=2');
    expect(page.pagination).toMatchObject({ page: 2, total: 2, totalPages: 2 });
    // a tenant-wide group is changed by administrators of all sites only
    const refused = await call('POST', `${API}/${group.id}/members`, limited, { device_ids: [dev.lon1] });
    expect(refused.status).toBe(403);
    expect((await call('DELETE', `${API}/${group.id}/members`, tech, { device_ids: [dev.hq1] })).status).toBe(
      403,
    );
    const removed = await call<GroupMembersChangeResponse>('DELETE', `${API}/${group.id}/members`, admin, {
      device_ids: [dev.hq1],
    });
    expect(removed.body.data).toEqual({ changed: 1, member_count: 1 });
    const actions = await server.database.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceType, 'device_group'), eq(auditLogs.resourceId, String(group.id))));
    expect(actions.map((a) => a.action).sort()).toEqual([
      'Add Group Members',
      'Create Group',
      'Remove Group Members',
    ]);
  });

  it('lets only administrators of all sites create tenant-wide groups; others create site groups', async () => {
    const techTenantWide = await call('POST', API, tech, { name: 'Tech wide', kind: 'static' });
    expect(techTenantWide.status).toBe(403);
    expect(techTenantWide.body.error).toBe(groupMessages.tenantWideAdminOnly);
    const techSite = await create(tech, { kind: 'static', site_id: hq });
    expect(techSite.site_id).toBe(hq);
    expect(techSite.can_edit).toBe(true);
    // a site-limited user's group belongs to their site
    const mine = await create(limited, { kind: 'static' });
    expect(mine.site_id).toBe(lon);
    expect((await call('POST', API, limited, { name: 'Wide', kind: 'static', site_id: null })).status).toBe(
      403,
    );
    const other = await call('POST', API, limited, { name: 'Other', kind: 'static', site_id: hq });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe(groupMessages.siteOutsideScope);
    // a site's group holds that site's devices only
    const outside = await call('POST', `${API}/${mine.id}/members`, limited, { device_ids: [dev.hq1] });
    expect(outside.status).toBe(404);
    const wrongSite = await call('POST', `${API}/${techSite.id}/members`, admin, { device_ids: [dev.lon1] });
    expect(wrongSite.status).toBe(400);
  });

  it("hides another site's group from a site-limited user on every route", async () => {
    const hqGroup = await create(admin, {
      kind: 'dynamic',
      site_id: hq,
      filter: { match: 'all', conditions: [{ field: 'os_type', op: 'is', value: 'windows' }] },
    });
    expect(hqGroup.member_count).toBe(1);
    const list = (await call<GroupListResponse>('GET', `${API}?limit=200`, limited)).body.data.data;
    expect(list.map((g) => g.id)).not.toContain(hqGroup.id);
    for (const [method, path, body] of [
      ['GET', `${API}/${hqGroup.id}`, undefined],
      ['GET', `${API}/${hqGroup.id}/members`, undefined],
      ['PUT', `${API}/${hqGroup.id}`, { name: 'Renamed' }],
      ['DELETE', `${API}/${hqGroup.id}`, undefined],
      ['POST', `${API}/${hqGroup.id}/members`, { device_ids: [dev.lon1] }],
      ['DELETE', `${API}/${hqGroup.id}/members`, { device_ids: [dev.lon1] }],
    ] as const) {
      const res = await call(method, path, limited, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe(groupMessages.notFound);
    }
  });

  it("answers 404 for another tenant's group on every route", async () => {
    const group = await create(admin, { kind: 'static' });
    const list = (await call<GroupListResponse>('GET', `${API}?limit=200`, globex)).body.data.data;
    expect(list.map((g) => g.id)).not.toContain(group.id);
    for (const [method, path, body] of [
      ['GET', `${API}/${group.id}`, undefined],
      ['GET', `${API}/${group.id}/members`, undefined],
      ['PUT', `${API}/${group.id}`, { name: 'Mine now' }],
      ['DELETE', `${API}/${group.id}`, undefined],
      ['POST', `${API}/${group.id}/members`, { device_ids: [dev.hq1] }],
      ['DELETE', `${API}/${group.id}/members`, { device_ids: [dev.hq1] }],
    ] as const) {
      expect((await call(method, path, globex, body)).status, `${method} ${path}`).toBe(404);
    }
    // another tenant's devices are not found either
    const own = await create(globex, { kind: 'static' });
    expect((await call('POST', `${API}/${own.id}/members`, globex, { device_ids: [dev.hq1] })).status).toBe(
      404,
    );
  });

  it('previews a filter in the caller scope, and re-evaluates members when the filter changes', async () => {
    const windows = { match: 'all', conditions: [{ field: 'os_type', op: 'is', value: 'windows' }] };
    const all = (await call<GroupPreviewResponse>('POST', `${API}/preview`, admin, { filter: windows })).body
      .data;
    const lonOnly = (await call<GroupPreviewResponse>('POST', `${API}/preview`, limited, { filter: windows }))
      .body.data;
    expect(all.count).toBeGreaterThan(lonOnly.count);
    expect(lonOnly.devices.every((d) => d.site_id === lon)).toBe(true);
    expect(all.devices.length).toBeLessThanOrEqual(10);
    const scoped = await call('POST', `${API}/preview`, limited, {
      filter: { match: 'all', conditions: [{ field: 'site', op: 'in', site_ids: [hq] }] },
    });
    expect(scoped.status).toBe(403);

    const group = await create(admin, { kind: 'dynamic', site_id: hq, filter: windows });
    expect((await members(group.id, admin)).data.map((m) => m.id)).toEqual([dev.hq1]);
    const changed = await call<GroupDetail>('PUT', `${API}/${group.id}`, admin, {
      filter: { match: 'all', conditions: [{ field: 'os_type', op: 'is', value: 'linux' }] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.filter?.conditions[0]).toMatchObject({ value: 'linux' });
    expect((await members(group.id, admin)).data.map((m) => m.id)).toEqual([dev.hq2]);
    expect((await call('POST', `${API}/${group.id}/members`, admin, { device_ids: [dev.hq1] })).status).toBe(
      400,
    );
    expect((await call('DELETE', `${API}/${group.id}`, admin)).status).toBe(200);
    expect((await call('GET', `${API}/${group.id}`, admin)).status).toBe(404);
  });

  it('refuses bad input with a clear 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', kind: 'static' }, groupMessages.nameRequired],
      [{ name: 'No filter', kind: 'dynamic' }, groupMessages.filterRequired],
      [
        {
          name: 'Bad version',
          kind: 'dynamic',
          filter: {
            match: 'all',
            conditions: [
              {
                field: 'software',
                op: 'installed',
                name_match: 'contains',
                name: 'x',
                version_op: 'gt',
                version: 'latest',
              },
            ],
          },
        },
        groupMessages.versionFormat,
      ],
      [
        {
          name: 'Too many',
          kind: 'dynamic',
          filter: {
            match: 'all',
            conditions: Array.from({ length: MAX_GROUP_CONDITIONS + 1 }, () => ({
              field: 'os_type',
              op: 'is',
              value: 'windows',
            })),
          },
        },
        groupMessages.tooManyConditions,
      ],
      [
        { name: 'Bad field', kind: 'dynamic', filter: { match: 'all', conditions: [{ field: 'colour' }] } },
        '',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', API, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (message) {
        expect(res.body.error).toContain(message);
      }
    }
    expect((await call('GET', `${API}/abc`, admin)).status).toBe(400);
  });
});
