import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  DashboardStats,
  Device,
  DeviceListResponse,
  Service,
  SiteOption,
  SoftwareListResponse,
} from '@outpost/contract/devices';
import type { DeviceActionListResponse } from '@outpost/contract/device-actions';
import { accessMessages, deviceMessages } from '@outpost/contract/messages';
import { startFleet } from '@outpost/agent/sim/fleet';
import type { Fleet } from '@outpost/agent/sim/fleet';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, deviceCommands, devices, deviceSoftware } from '../../db/schema/index';
import { insertDevice } from '../../../test/support/devices';
import { createEnrollmentToken, eventually } from '../../../test/support/live';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('devices API: list, detail, software, scope', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let globex: number;
  let siteIds: number[];
  let foreign: { id: number; deviceGuid: string };
  let withSoftware: { id: number; deviceGuid: string };

  const get = <T>(path: string, token = admin) => server.request<Envelope<T>>('GET', path, { token });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    globex = demo.globexTenantId;
    siteIds = demo.siteIds;
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    const [hq, lon] = siteIds as [number, number];
    const recent = new Date(Date.now() - 5 * 60_000);
    // 30 windows devices at HQ (10 online, 5 loggedin, 15 offline), 6 macs in London (2 error)
    for (let i = 0; i < 30; i++) {
      const status = i < 10 ? 'online' : i < 15 ? 'loggedin' : 'offline';
      await insertDevice(server, {
        tenantId: acme,
        hostname: `HQ-WS-${String(i).padStart(3, '0')}`,
        ipAddress: `10.1.0.${i + 10}`,
        serialNumber: `SN-HQ-${i}`,
        status,
        siteId: hq,
        lastSeen: recent,
      });
    }
    for (let i = 0; i < 6; i++) {
      await insertDevice(server, {
        tenantId: acme,
        hostname: `LON-MAC-${i}`,
        ipAddress: `10.2.0.${i + 10}`,
        serialNumber: `C02LON${i}`,
        osType: 'macos',
        status: i < 2 ? 'error' : 'online',
        siteId: lon,
        lastSeen: recent,
      });
    }
    withSoftware = await insertDevice(server, {
      tenantId: acme,
      hostname: 'SOFTWARE-BOX',
      status: 'online',
      siteId: hq,
      lastSeen: new Date(),
    });
    await server.database.db.insert(deviceSoftware).values(
      Array.from({ length: 120 }, (_, i) => ({
        tenantId: acme,
        deviceId: withSoftware.id,
        name: `App ${String(i).padStart(3, '0')}`,
        displayName: `App ${String(i).padStart(3, '0')}`,
        publisher: i % 2 === 0 ? 'Contoso' : 'Fabrikam',
        version: `1.${i}`,
      })),
    );
    foreign = await insertDevice(server, {
      tenantId: globex,
      hostname: 'GLOBEX-PC-1',
      status: 'online',
      lastSeen: new Date(),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists in a stable order with pagination totals', async () => {
    const p1 = await get<DeviceListResponse>('/api/customer/devices?limit=10');
    expect(p1.status).toBe(200);
    expect(p1.body.data.pagination).toEqual({ page: 1, limit: 10, total: 37, totalPages: 4 });
    expect(p1.body.data.data).toHaveLength(10);
    expect(p1.body.data.data[0]!.hostname).toBe('HQ-WS-000');
    const p4 = await get<DeviceListResponse>('/api/customer/devices?limit=10&page=4');
    expect(p4.body.data.data).toHaveLength(7);
    const all = await get<DeviceListResponse>('/api/customer/devices?limit=100');
    const names = all.body.data.data.map((d) => d.hostname);
    expect(names).toEqual([...names].sort((a, b) => a!.toLowerCase().localeCompare(b!.toLowerCase())));
    expect(names).not.toContain('GLOBEX-PC-1');
    // the default page size is 20 and list rows carry no inventory documents
    const def = await get<DeviceListResponse>('/api/customer/devices');
    expect(def.body.data.pagination.limit).toBe(20);
    expect(def.body.data.data[0]).not.toHaveProperty('hardware_info');
  });

  it('combines search, status, OS and site filters', async () => {
    const [hq, lon] = siteIds as [number, number];
    const q = (s: string) => get<DeviceListResponse>(`/api/customer/devices?limit=100&${s}`);
    expect((await q('status=online')).body.data.pagination.total).toBe(10 + 5 + 4 + 1);
    expect((await q('status=loggedin')).body.data.pagination.total).toBe(5);
    expect((await q('status=error')).body.data.pagination.total).toBe(2);
    expect((await q('status=offline')).body.data.pagination.total).toBe(15);
    expect((await q('os_type=macos')).body.data.pagination.total).toBe(6);
    expect((await q(`site_id=${lon}`)).body.data.pagination.total).toBe(6);
    expect((await q(`site_id=${hq}&status=offline&os_type=windows`)).body.data.pagination.total).toBe(15);
    // search: hostname, IP and serial number, case-insensitive, combined with filters
    expect((await q('search=hq-ws-00')).body.data.pagination.total).toBe(10);
    expect((await q('search=10.2.0.1')).body.data.data.map((d) => d.hostname)).toEqual([
      'LON-MAC-0',
      'LON-MAC-1',
      'LON-MAC-2',
      'LON-MAC-3',
      'LON-MAC-4',
      'LON-MAC-5',
    ]);
    expect((await q('search=c02lon3')).body.data.data.map((d) => d.hostname)).toEqual(['LON-MAC-3']);
    expect((await q('search=lon-mac&status=error')).body.data.pagination.total).toBe(2);
    expect((await q(`search=HQ&site_id=${lon}`)).body.data.pagination.total).toBe(0);
    // LIKE wildcards are text, not patterns
    expect((await q('search=%25')).body.data.pagination.total).toBe(0);
    // the three fields are searched joined by newlines: a term never matches across two of them
    expect((await q('search=lon-mac-3%0A10.2')).body.data.pagination.total).toBe(0);
    expect((await q('search=10.2.0.1%0Ac02')).body.data.pagination.total).toBe(0);
    const bad = await q('limit=500');
    expect(bad.status).toBe(400);
  });

  it('a site-scoped user sees only devices of their sites', async () => {
    const [, lon] = siteIds as [number, number];
    const { users, userSites } = await import('../../db/schema/index');
    const [techRow] = await server.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, acme), eq(users.email, 'tech@acme.example')));
    await server.database.db
      .update(users)
      .set({ siteAccessType: 'specific' })
      .where(eq(users.id, techRow!.id));
    await server.database.db.insert(userSites).values({ userId: techRow!.id, siteId: lon });
    try {
      const list = await get<DeviceListResponse>('/api/customer/devices?limit=100', tech);
      expect(list.body.data.pagination.total).toBe(6);
      const sitesRes = await get<SiteOption[]>('/api/customer/devices/sites/list', tech);
      expect(sitesRes.body.data.map((s) => s.id)).toEqual([lon]);
      expect((await get(`/api/customer/devices/${withSoftware.id}`, tech)).status).toBe(404);
      const stats = await get<DashboardStats>('/api/customer/devices/stats/dashboard', tech);
      expect(stats.body.data.deviceCounts).toEqual({ total: 6, online: 4 });
    } finally {
      await server.database.db.update(users).set({ siteAccessType: 'all' }).where(eq(users.id, techRow!.id));
    }
  });

  it('gets a device by numeric id or guid; unknown → Device not found', async () => {
    const byId = await get<Device>(`/api/customer/devices/${withSoftware.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.data.device_guid).toBe(withSoftware.deviceGuid);
    expect(byId.body.data.site_name).toBe('Headquarters');
    const byGuid = await get<Device>(`/api/customer/devices/${withSoftware.deviceGuid.toUpperCase()}`);
    expect(byGuid.body.data.id).toBe(withSoftware.id);
    const missing = await get('/api/customer/devices/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Device not found');
    expect((await get('/api/customer/devices/not-an-id')).status).toBe(404);
  });

  it("another tenant's device is 404 everywhere", async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/customer/devices/${foreign.id}`],
      ['GET', `/api/customer/devices/${foreign.deviceGuid}`],
      ['GET', `/api/customer/devices/${foreign.id}/software`],
      ['GET', `/api/customer/devices/${foreign.id}/services`],
      ['POST', `/api/customer/devices/${foreign.id}/services/Spooler/stop`, {}],
      ['POST', `/api/customer/devices/${foreign.id}/refresh/hardware`, {}],
      ['DELETE', `/api/customer/devices/${foreign.id}`],
      ['DELETE', '/api/customer/devices', { device_ids: [foreign.id] }],
      ['POST', '/api/customer/deployments/device-actions', { device_id: foreign.id, action_type: 'restart' }],
    ];
    for (const [method, path, body] of paths) {
      const res = await server.request<Envelope<unknown>>(method, path, { token: admin, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const actions = await get<DeviceActionListResponse>(
      `/api/customer/deployments/device-actions/list?device_id=${foreign.id}`,
    );
    expect(actions.body.data.pagination.total).toBe(0);
    // and the owner still sees it
    expect((await get(`/api/customer/devices/${foreign.id}`, globexAdmin)).status).toBe(200);
    const [still] = await server.database.db.select().from(devices).where(eq(devices.id, foreign.id));
    expect(still).toBeDefined();
  });

  it('pages software 50 at a time with search', async () => {
    const base = `/api/customer/devices/${withSoftware.deviceGuid}/software`;
    const p1 = await get<SoftwareListResponse>(base);
    expect(p1.body.data).toMatchObject({ total: 120, totalPages: 3, page: 1, limit: 50 });
    expect(p1.body.data.data).toHaveLength(50);
    expect(p1.body.data.data[0]).toEqual({
      name: 'App 000',
      displayName: 'App 000',
      publisher: 'Contoso',
      version: '1.0',
      installDate: null,
    });
    const p3 = await get<SoftwareListResponse>(`${base}?page=3`);
    expect(p3.body.data.data).toHaveLength(20);
    expect(p3.body.data.data[19]!.name).toBe('App 119');
    const searched = await get<SoftwareListResponse>(`${base}?search=fabrikam&limit=50`);
    expect(searched.body.data).toMatchObject({ total: 60, totalPages: 2 });
    const none = await get<SoftwareListResponse>(`${base}?search=nothing-like-this`);
    expect(none.body.data).toMatchObject({ total: 0, totalPages: 1, data: [] });
  });

  it('dashboard stats are real counts for the tenant', async () => {
    const res = await get<DashboardStats>('/api/customer/devices/stats/dashboard');
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s.tenant).toMatchObject({ tenant_name: 'Acme Corp', plan: 'Professional', max_agents: 100 });
    expect(s.tenant.license_expiry).toMatch(/^\d{4}-/);
    expect(s.deviceCounts).toEqual({ total: 37, online: 10 + 5 + 4 + 1 });
    expect(s.recentDevices[0]!.hostname).toBe('SOFTWARE-BOX');
    expect(s.recentDevices.length).toBeLessThanOrEqual(5);
    expect(s.runningDeployments).toBe(0);
    expect(s.totalPackages).toBeGreaterThanOrEqual(0);
    expect(s.recentSoftware.length).toBeGreaterThan(0);
    expect(s.recentSoftware[0]).toMatchObject({
      device_count: 1,
      latest_device_guid: withSoftware.deviceGuid,
    });
    const sitesRes = await get<SiteOption[]>('/api/customer/devices/sites/list');
    expect(sitesRes.body.data.map((x) => x.site_name)).toEqual([
      'Distribution Center',
      'Headquarters',
      'London Office',
    ]);
  });

  it('service control and refresh of an offline device → 409 with a clear message', async () => {
    const [offline] = await server.database.db
      .select({ id: devices.id, hostname: devices.hostname })
      .from(devices)
      .where(and(eq(devices.tenantId, acme), eq(devices.status, 'offline')))
      .limit(1);
    const res = await server.request<Envelope<unknown>>(
      'POST',
      `/api/customer/devices/${offline!.id}/refresh/software`,
      { token: admin, body: {} },
    );
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(deviceMessages.deviceOffline(offline!.hostname));
  });

  const commandsOf = async (deviceId: number) =>
    server.database.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, deviceId));
  const spooler: Service = {
    serviceName: 'Spooler',
    displayName: 'Print Spooler',
    status: 'Running',
    startType: 'Automatic',
  };

  it('device actions and service control need an online or logged-in device: 409 otherwise', async () => {
    const inError = await insertDevice(server, {
      tenantId: acme,
      hostname: 'FAULTY-1',
      status: 'error',
      siteId: siteIds[0],
      services: [spooler],
    });
    const online = await insertDevice(server, {
      tenantId: acme,
      hostname: 'FINE-1',
      status: 'online',
      siteId: siteIds[0],
    });
    const offline = await insertDevice(server, {
      tenantId: acme,
      hostname: 'AWAY-1',
      status: 'offline',
      siteId: siteIds[0],
    });
    for (const token of [tech, admin]) {
      const action = await server.request<Envelope<unknown>>(
        'POST',
        '/api/customer/deployments/device-actions',
        {
          token,
          body: { device_id: inError.id, action_type: 'restart' },
        },
      );
      expect(action.status).toBe(409);
      expect(action.body.error).toBe(accessMessages.deviceNotActionable('FAULTY-1', 'error'));
      const control = await server.request<Envelope<unknown>>(
        'POST',
        `/api/customer/devices/${inError.id}/services/Spooler/restart`,
        { token, body: {} },
      );
      expect(control.status).toBe(409);
      expect(control.body.error).toBe(accessMessages.deviceNotActionable('FAULTY-1', 'error'));
    }
    const away = await server.request<Envelope<unknown>>('POST', '/api/customer/deployments/device-actions', {
      token: tech,
      body: { device_id: offline.id, action_type: 'shutdown' },
    });
    expect(away.status).toBe(409);
    expect(away.body.error).toBe(deviceMessages.deviceOffline('AWAY-1'));
    // several devices: all or nothing, naming the ones that cannot take it
    const bulk = await server.request<Envelope<unknown>>('POST', '/api/customer/deployments/device-actions', {
      token: tech,
      body: { device_ids: [online.id, inError.id, offline.id], action_type: 'restart' },
    });
    expect(bulk.status).toBe(409);
    expect(bulk.body.error).toBe(
      accessMessages.devicesNotActionable(['FAULTY-1 (error)', 'AWAY-1 (offline)']),
    );
    for (const d of [inError, online, offline]) {
      expect(await commandsOf(d.id)).toEqual([]);
    }
  });

  it('service control only for a service the device reported: nothing reaches the agent otherwise', async () => {
    const silent = await insertDevice(server, {
      tenantId: acme,
      hostname: 'NO-INVENTORY',
      status: 'online',
      siteId: siteIds[0],
    });
    const notYet = await server.request<Envelope<unknown>>(
      'POST',
      `/api/customer/devices/${silent.id}/services/Spooler/stop`,
      { token: tech, body: {} },
    );
    expect(notYet.status).toBe(409);
    expect(notYet.body.error).toBe(accessMessages.servicesNotReported('NO-INVENTORY'));
    const reported = await insertDevice(server, {
      tenantId: acme,
      hostname: 'WITH-SERVICES',
      status: 'loggedin',
      siteId: siteIds[0],
      services: [spooler],
    });
    for (const name of ['-Hroot@203.0.113.9', 'NoSuchService', 'spooler']) {
      const res = await server.request<Envelope<unknown>>(
        'POST',
        `/api/customer/devices/${reported.id}/services/${encodeURIComponent(name)}/stop`,
        { token: tech, body: {} },
      );
      expect(res.status, name).toBe(404);
      expect(res.body.error).toBe(accessMessages.serviceNotFound(name, 'WITH-SERVICES'));
    }
    expect(await commandsOf(silent.id)).toEqual([]);
    expect(await commandsOf(reported.id)).toEqual([]);
  });

  it('delete and bulk delete are for administrators, audited', async () => {
    const a = await insertDevice(server, { tenantId: acme, hostname: 'DEL-1' });
    const b = await insertDevice(server, { tenantId: acme, hostname: 'DEL-2' });
    const c = await insertDevice(server, { tenantId: acme, hostname: 'DEL-3' });
    const refused = await server.request('DELETE', `/api/customer/devices/${a.id}`, { token: tech });
    expect(refused.status).toBe(403);
    const one = await server.request<Envelope<{ deleted: number }>>(
      'DELETE',
      `/api/customer/devices/${a.id}`,
      {
        token: admin,
      },
    );
    expect(one.body.data.deleted).toBe(1);
    const mixed = await server.request('DELETE', '/api/customer/devices', {
      token: admin,
      body: { device_ids: [b.id, foreign.id] },
    });
    expect(mixed.status).toBe(404);
    const bulk = await server.request<Envelope<{ deleted: number }>>('DELETE', '/api/customer/devices', {
      token: admin,
      body: { device_ids: [b.id, c.id] },
    });
    expect(bulk.body.data.deleted).toBe(2);
    const logs = await server.database.db
      .select({ action: auditLogs.action, details: auditLogs.details })
      .from(auditLogs)
      .where(eq(auditLogs.tenantId, acme));
    expect(logs).toContainEqual({ action: 'Delete Device', details: 'Deleted DEL-1' });
    expect(logs).toContainEqual({
      action: 'Bulk Delete Devices',
      details: 'Deleted 2 devices: DEL-2, DEL-3',
    });
    // each device of the bulk delete is found by the audit's 'Delete Device' filter too
    expect(logs).toContainEqual({ action: 'Delete Device', details: 'Deleted DEL-2 (Bulk Delete Devices)' });
    expect(logs).toContainEqual({ action: 'Delete Device', details: 'Deleted DEL-3 (Bulk Delete Devices)' });
  });
});

describe('through simulated agents: service control, refresh, restart', () => {
  let server: TestServer;
  let admin: string;
  let fleet: Fleet;

  beforeAll(async () => {
    server = await startTestServer({
      env: { AGENT_HEARTBEAT_INTERVAL_MS: '200', AGENT_PRESENCE_GRACE_MS: '300' },
    });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    const { token } = await createEnrollmentToken(server.request.bind(server), admin);
    fleet = await startFleet({
      server: server.url,
      tokens: [token],
      devices: 2,
      seed: 44,
      tickMs: 3_600_000,
      power: { restartDownMs: 1500, shutdownDownMs: 1500 },
    });
    await eventually(async () => {
      const list = await server.request<Envelope<DeviceListResponse>>(
        'GET',
        '/api/customer/devices?status=online',
        {
          token: admin,
        },
      );
      return list.body.data.pagination.total === 2;
    });
    // online comes with the hello; the services list follows in the agent's first inventory report
    await eventually(async () => {
      const rows = await server.database.db
        .select({ guid: devices.deviceGuid, services: devices.services })
        .from(devices);
      return fleet.agents.every((a) => rows.some((r) => r.guid === a.deviceGuid && r.services !== null));
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
  });

  const sim = (i: number) => fleet.agents[i]!;

  it('service control round trip: the agent changes the service and the list shows it', async () => {
    const a = sim(0);
    const running = a.device.services.find(
      (s) => s.status === 'Running' && s.serviceName !== 'OutpostAgent',
    )!;
    const base = `/api/customer/devices/${a.deviceGuid}`;
    const stop = await server.request<Envelope<{ status: string; message: string }>>(
      'POST',
      `${base}/services/${encodeURIComponent(running.serviceName)}/stop`,
      { token: admin, body: {} },
    );
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body.data).toMatchObject({
      status: 'Stopped',
      message: 'Service stop completed successfully',
    });
    expect(a.executor.calls).toContainEqual({
      kind: 'service_control',
      serviceName: running.serviceName,
      action: 'stop',
    });
    // the agent reports its services again after the change
    const after = await eventually(async () => {
      const res = await server.request<Envelope<Service[]>>('GET', `${base}/services`, { token: admin });
      const s = res.body.data.find((x) => x.serviceName === running.serviceName);
      return s?.status === 'Stopped' ? s : null;
    });
    expect(after.status).toBe('Stopped');
    const start = await server.request<Envelope<{ status: string }>>(
      'POST',
      `${base}/services/${encodeURIComponent(running.serviceName)}/start`,
      { token: admin, body: {} },
    );
    expect(start.body.data.status).toBe('Running');
    // the agent's own error comes back as the answer
    const unknown = await server.request<Envelope<unknown>>('POST', `${base}/services/NoSuchService/start`, {
      token: admin,
      body: {},
    });
    expect(unknown.status).toBe(404);
  });

  it('refresh asks the agent to report again', async () => {
    const a = sim(0);
    const before = await server.request<Envelope<Device>>('GET', `/api/customer/devices/${a.deviceGuid}`, {
      token: admin,
    });
    a.device.hardware.cpu.name = 'Refreshed CPU 9000';
    const res = await server.request<Envelope<{ last_inventory_update: string }>>(
      'POST',
      `/api/customer/devices/${a.deviceGuid}/refresh/hardware`,
      { token: admin, body: {} },
    );
    expect(res.status).toBe(200);
    expect(new Date(res.body.data.last_inventory_update).getTime()).toBeGreaterThanOrEqual(
      new Date(before.body.data.last_inventory_update!).getTime(),
    );
    const after = await server.request<Envelope<Device>>('GET', `/api/customer/devices/${a.deviceGuid}`, {
      token: admin,
    });
    expect(after.body.data.hardware_info?.cpu.name).toBe('Refreshed CPU 9000');
  });

  it('a restart reaches the agent, which goes offline and comes back; the action completes', async () => {
    const a = sim(1);
    const [row] = await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.deviceGuid, a.deviceGuid));
    const created = await server.request<
      Envelope<{ created: number; actions: { id: string; status: string }[] }>
    >('POST', '/api/customer/deployments/device-actions', {
      token: admin,
      body: { device_ids: [row!.id], action_type: 'restart' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.created).toBe(1);
    const actionId = created.body.data.actions[0]!.id;
    const statusOf = async () =>
      (await server.request<Envelope<Device>>('GET', `/api/customer/devices/${row!.id}`, { token: admin }))
        .body.data.status;
    await eventually(async () => (await statusOf()) === 'offline', 10_000);
    expect(a.executor.calls).toContainEqual({ kind: 'device_action', action: 'restart' });
    await eventually(async () => (await statusOf()) !== 'offline', 10_000);
    const list = await server.request<Envelope<DeviceActionListResponse>>(
      'GET',
      `/api/customer/deployments/device-actions/list?device_id=${row!.id}&action_type=restart`,
      { token: admin },
    );
    expect(list.body.data.pagination.total).toBe(1);
    expect(list.body.data.data[0]).toMatchObject({
      id: actionId,
      action_type: 'restart',
      status: 'completed',
      hostname: a.device.facts.hostname,
      created_by_name: 'Alex Morgan',
    });
    const [audit] = await server.database.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(eq(auditLogs.resourceId, String(row!.id)))
      .orderBy(auditLogs.id);
    expect(audit?.action).toBeDefined();
  });

  it('an action for a device that went offline is refused, and nothing is queued for its return', async () => {
    const a = sim(0);
    const [row] = await server.database.db
      .select({ id: devices.id, hostname: devices.hostname })
      .from(devices)
      .where(eq(devices.deviceGuid, a.deviceGuid));
    const statusOf = async () =>
      (await server.database.db.select({ s: devices.status }).from(devices).where(eq(devices.id, row!.id)))[0]
        ?.s;
    // switched off by hand: no automatic power-on
    await a.power!.powerOff('shutdown');
    a.power!.cancel();
    await eventually(async () => (await statusOf()) === 'offline');
    const refused = await server.request<Envelope<unknown>>(
      'POST',
      '/api/customer/deployments/device-actions',
      {
        token: admin,
        body: { device_id: row!.id, action_type: 'shutdown' },
      },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(deviceMessages.deviceOffline(row!.hostname));
    // powered on again: it comes back and receives no shutdown
    a.power!.powerOn();
    await eventually(async () => (await statusOf()) !== 'offline');
    const list = await server.request<Envelope<DeviceActionListResponse>>(
      'GET',
      `/api/customer/deployments/device-actions/list?device_id=${row!.id}&action_type=shutdown`,
      { token: admin },
    );
    expect(list.body.data.pagination.total).toBe(0);
    expect(a.executor.calls.filter((c) => c.kind === 'device_action')).toHaveLength(0);
  });
});
