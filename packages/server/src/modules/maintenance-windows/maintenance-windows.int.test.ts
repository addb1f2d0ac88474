import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { GroupDetail } from '@outpost/contract/groups';
import { maintenanceWindowMessages } from '@outpost/contract/maintenance-windows';
import type { MaintenanceWindow } from '@outpost/contract/maintenance-windows';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { auditLogs } from '../../db/schema/index';
import { addMember } from '../tenants/tenants.service';
import { createMaintenanceWindowsService } from './maintenance-windows.service';

// docs/product/rollouts.md#maintenance-windows: CRUD, the contract's messages, who may change a
// site's or a group's windows, scope and another tenant's windows not found; a device's windows.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const API = '/api/customer/maintenance-windows';

describe('maintenance windows API', () => {
  let server: TestServer;
  let admin: string, tech: string, lonAdmin: string, lonUser: string, globex: string;
  let tenantId: number;
  let hq: number, lon: number;
  let tenantGroup: number, lonGroup: number;

  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const body = (over: Record<string, unknown>) => ({
    name: 'Nightly',
    days: [2, 4],
    start_time: '22:00',
    duration_minutes: 120,
    ...over,
  });
  async function create(token: string, over: Record<string, unknown>) {
    const res = await call<MaintenanceWindow>('POST', API, token, body(over));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, {
      tenantId,
      email: 'lon-admin@acme.example',
      siteIds: [lon],
      role: 'tenant_admin',
    });
    await addMember(server.database.db, { tenantId, email: 'lon-user@acme.example', siteIds: [lon] });
    lonAdmin = (await server.devSignIn('lon-admin@acme.example')).token;
    lonUser = (await server.devSignIn('lon-user@acme.example')).token;
    await call('PUT', `/api/customer/sites/${lon}`, admin, { timezone: 'Europe/London' });
    const g1 = await call<GroupDetail>('POST', '/api/customer/groups', admin, {
      name: 'All pilots',
      kind: 'static',
    });
    const g2 = await call<GroupDetail>('POST', '/api/customer/groups', admin, {
      name: 'London pilots',
      kind: 'static',
      site_id: lon,
    });
    tenantGroup = g1.body.data.id;
    lonGroup = g2.body.data.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates, lists, changes and deletes a site window, with audit entries', async () => {
    const w = await create(admin, { site_id: lon, days: [4, 2, 2] });
    expect(w).toMatchObject({
      name: 'Nightly',
      site_id: lon,
      group_id: null,
      days: [2, 4],
      start_time: '22:00',
      duration_minutes: 120,
      enabled: true,
      timezone: 'Europe/London',
    });
    expect(w.next_opens_at).not.toBeNull();
    const list = await call<MaintenanceWindow[]>('GET', `${API}?site_id=${lon}`, admin);
    expect(list.body.data.map((x) => x.id)).toContain(w.id);
    const changed = await call<MaintenanceWindow>(
      'PUT',
      `${API}/${w.id}`,
      admin,
      body({ site_id: lon, name: 'Weekend', days: [0, 6], enabled: false }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      name: 'Weekend',
      days: [0, 6],
      enabled: false,
      next_opens_at: null,
    });
    const [audit] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'Update Maintenance Window'), eq(auditLogs.resourceId, String(w.id))))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit?.details).toContain('Weekend');
    expect((await call('DELETE', `${API}/${w.id}`, admin)).status).toBe(200);
    expect((await call('DELETE', `${API}/${w.id}`, admin)).status).toBe(404);
    const actions = (
      await server.database.db
        .select({ a: auditLogs.action })
        .from(auditLogs)
        .where(eq(auditLogs.resourceId, String(w.id)))
    ).map((r) => r.a);
    expect(actions).toEqual(
      expect.arrayContaining([
        'Create Maintenance Window',
        'Update Maintenance Window',
        'Delete Maintenance Window',
      ]),
    );
  });

  it("refuses bad windows with the contract's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body({ site_id: lon, name: '' }), 'Name is required'],
      [body({ site_id: lon, days: [] }), 'Choose at least one day'],
      [body({ site_id: lon, start_time: '24:00' }), 'Start time must be HH:MM (24-hour)'],
      [body({ site_id: lon, duration_minutes: 5 }), 'A window lasts at least 15 minutes'],
      [body({ site_id: lon, duration_minutes: 1441 }), 'A window lasts at most 24 hours'],
      [body({}), 'A window belongs to one site or one group'],
      [body({ site_id: lon, group_id: lonGroup }), 'A window belongs to one site or one group'],
    ];
    for (const [b, message] of cases) {
      const res = await call('POST', API, admin, b);
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    expect((await call('POST', API, admin, body({ site_id: 'x' }))).status).toBe(400);
    expect((await call('GET', `${API}?site_id=abc`, admin)).status).toBe(400);
  });

  it('lets only those who may change the site or the group change its windows', async () => {
    // a site's windows: administrators; a site-limited one only their sites
    expect((await call('POST', API, tech, body({ site_id: lon }))).status).toBe(403);
    expect((await call('POST', API, lonAdmin, body({ site_id: hq }))).status).toBe(404);
    const lonWindow = await create(lonAdmin, { site_id: lon });
    const hqWindow = await create(admin, { site_id: hq });
    // a tenant-wide group's windows: administrators of all sites
    expect((await call('POST', API, lonAdmin, body({ group_id: tenantGroup }))).status).toBe(403);
    const tenantWindow = await create(admin, { group_id: tenantGroup });
    expect(tenantWindow.timezone).toBeNull();
    // a site's group: anyone who sees that site
    const lonGroupWindow = await create(lonUser, { group_id: lonGroup });
    expect(lonGroupWindow).toMatchObject({ group_name: 'London pilots', timezone: 'Europe/London' });
    // reading follows the scope: the limited users see their site's and the shared group's windows
    const seen = (await call<MaintenanceWindow[]>('GET', API, lonUser)).body.data.map((w) => w.id);
    expect(seen).toEqual(expect.arrayContaining([lonWindow.id, tenantWindow.id, lonGroupWindow.id]));
    expect(seen).not.toContain(hqWindow.id);
    expect((await call('PUT', `${API}/${hqWindow.id}`, lonAdmin, body({ site_id: lon }))).status).toBe(404);
    expect((await call('DELETE', `${API}/${hqWindow.id}`, lonAdmin)).status).toBe(404);
    expect((await call('DELETE', `${API}/${tenantWindow.id}`, lonUser)).status).toBe(403);
    // a user moves no window onto a site (sites are the administrators')
    expect((await call('PUT', `${API}/${lonGroupWindow.id}`, lonUser, body({ site_id: lon }))).status).toBe(
      403,
    );
    expect((await call('DELETE', `${API}/${lonGroupWindow.id}`, lonUser)).status).toBe(200);
  });

  it("answers another tenant's windows, sites and groups as not found", async () => {
    const w = await create(admin, { site_id: hq });
    for (const [method, path, b] of [
      ['PUT', `${API}/${w.id}`, body({ site_id: hq })],
      ['DELETE', `${API}/${w.id}`, undefined],
    ] as const) {
      const res = await call(method, path, globex, b);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(maintenanceWindowMessages.notFound);
    }
    expect((await call('POST', API, globex, body({ site_id: hq }))).status).toBe(404);
    expect((await call('POST', API, globex, body({ group_id: tenantGroup }))).status).toBe(404);
    expect((await call<MaintenanceWindow[]>('GET', API, globex)).body.data).toEqual([]);
  });

  it("gives each device its site's and its groups' enabled windows, in its site's zone", async () => {
    const service = createMaintenanceWindowsService({ db: server.database.db });
    const inLon = (await insertDevice(server, { tenantId, siteId: lon, hostname: 'mw-lon-1' })).id;
    const noSite = (await insertDevice(server, { tenantId, siteId: null, hostname: 'mw-none-1' })).id;
    const bare = (await insertDevice(server, { tenantId, siteId: null, hostname: 'mw-none-2' })).id;
    await call('POST', `/api/customer/groups/${tenantGroup}/members`, admin, { device_ids: [inLon, noSite] });
    await create(admin, { group_id: tenantGroup, name: 'Disabled', enabled: false, start_time: '03:00' });
    const map = await service.windowsFor(server.database.db, [inLon, noSite, bare]);
    expect(map.has(bare)).toBe(false);
    expect(map.get(noSite)?.timeZone).toBe('UTC');
    expect(map.get(inLon)?.timeZone).toBe('Europe/London');
    const lonWindows = map.get(inLon)!.windows;
    // the London site's window(s) and the tenant group's enabled one(s); the disabled one is left out
    expect(lonWindows.every((w) => w.startMinute === 22 * 60)).toBe(true);
    expect(lonWindows.length).toBeGreaterThanOrEqual(2);
  });
});
