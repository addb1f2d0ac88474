import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { checkMessages } from '@outpost/contract/checks';
import type { DeviceCheck, MonitoringPolicy, MonitoringPolicyBody } from '@outpost/contract/checks';
import { policyMessages } from '@outpost/contract/policies';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { addMember as addGroupMember, insertGroup } from '../../../test/support/policies';
import type { Envelope } from '../../../test/support/policies';
import { auditLogs } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';
import { addMember } from '../tenants/tenants.service';

// docs/product/monitoring.md#monitoring-policies: create, change, delete with the contract's
// messages, audit entries, another tenant's policy as not found, site-limited administrators
// within their sites, and a device's checks with site scope.

describe('monitoring policies: routes, scope and roles', () => {
  let server: TestServer;
  let admin: string, tech: string, limited: string, globex: string;
  let tenantId: number;
  let hq: number, london: number;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const create = (token: string, body: MonitoringPolicyBody) =>
    call<MonitoringPolicy>('POST', '/api/customer/monitoring-policies', token, body);
  const base = (over: Partial<MonitoringPolicyBody> = {}): MonitoringPolicyBody => ({
    name: `Servers ${Math.random().toString(36).slice(2, 8)}`,
    target_type: 'site',
    site_id: hq,
    checks: [
      {
        name: 'Backup script',
        config: { type: 'script', shell: 'powershell', script: 'exit 0', timeout_seconds: 30 },
        interval_seconds: 300,
        failures_before_alert: 2,
        severity: 'critical',
      },
      { name: 'System disk', config: { type: 'disk', volume: 'C:', min_free_percent: 10 } },
    ],
    ...over,
  });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, {
      tenantId,
      email: 'mon-limited@acme.example',
      role: 'tenant_admin',
      siteIds: [london],
    });
    limited = (await server.devSignIn('mon-limited@acme.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates, changes what a PUT names, keeps checks given with their id, deletes; audited', async () => {
    const res = await create(admin, base({ name: 'HQ servers', offline_alert_minutes: 15 }));
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p.target).toMatchObject({ type: 'site', site_id: hq });
    expect(p.offline_alert_minutes).toBe(15);
    expect(p.checks.map((c) => [c.name, c.interval_seconds, c.failures_before_alert, c.severity])).toEqual([
      ['Backup script', 300, 2, 'critical'],
      ['System disk', 60, 1, 'warning'],
    ]);
    expect(p.checks[1]!.config).toEqual({
      type: 'disk',
      volume: 'C:',
      min_free_percent: 10,
      min_free_gb: null,
    });

    // naming only `enabled` leaves the rest as it was
    const off = await call<MonitoringPolicy>('PUT', `/api/customer/monitoring-policies/${p.id}`, admin, {
      enabled: false,
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false, offline_alert_minutes: 15 });
    expect(off.body.data.checks.map((c) => c.id)).toEqual(p.checks.map((c) => c.id));

    const [script, disk] = p.checks;
    const changed = await call<MonitoringPolicy>('PUT', `/api/customer/monitoring-policies/${p.id}`, admin, {
      checks: [
        { ...disk, id: disk!.id, name: 'Disk C:' },
        { name: 'Spooler', config: { type: 'service', service: 'Spooler' } },
      ],
    });
    expect(changed.status).toBe(200);
    const ids = changed.body.data.checks.map((c) => c.id);
    expect(ids[0]).toBe(disk!.id);
    expect(ids).not.toContain(script!.id);
    expect(changed.body.data.checks.map((c) => c.name)).toEqual(['Disk C:', 'Spooler']);

    const list = await call<{ data: MonitoringPolicy[] }>('GET', '/api/customer/monitoring-policies', admin);
    expect(list.body.data.data.map((x) => x.name)).toContain('HQ servers');
    expect((await call('DELETE', `/api/customer/monitoring-policies/${p.id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/customer/monitoring-policies/${p.id}`, admin)).status).toBe(404);

    const actions = await server.database.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceType, 'monitoring_policy'), eq(auditLogs.resourceId, String(p.id))))
      .orderBy(auditLogs.id);
    expect(actions.map((a) => a.action)).toEqual([
      'Create Monitoring Policy',
      'Disable Monitoring Policy',
      'Update Monitoring Policy',
      'Delete Monitoring Policy',
    ]);
  });

  it("refuses bad input with the contract's messages", async () => {
    const one = (check: Record<string, unknown>) =>
      ({ checks: [{ name: 'c', ...check }] }) as Partial<MonitoringPolicyBody>;
    const cases: [Partial<MonitoringPolicyBody> | Record<string, unknown>, string][] = [
      [{ name: ' ' }, checkMessages.nameRequired],
      [
        one({ config: { type: 'cpu', percent: 90, minutes: 5 }, interval_seconds: 10 }),
        checkMessages.interval,
      ],
      [one({ config: { type: 'cpu', percent: 0, minutes: 5 } }), checkMessages.percent],
      [one({ config: { type: 'disk', volume: '/' } }), checkMessages.diskThreshold],
      [one({ config: { type: 'script', shell: 'bash', script: '  ' } }), checkMessages.scriptRequired],
      [one({ config: { type: 'port', host: 'db', port: 70_000 } }), checkMessages.port],
      [one({ config: { type: 'memory', percent: 80 }, failures_before_alert: 11 }), checkMessages.failures],
      [one({ name: '', config: { type: 'memory', percent: 80 } }), checkMessages.checkNameRequired],
      [{ offline_alert_minutes: 1 }, checkMessages.offlineMinutes],
      [{ target_type: 'site', site_id: null }, policyMessages.siteRequired],
    ];
    for (const [over, message] of cases) {
      const res = await create(admin, { ...base(), ...over });
      expect(res.status, message).toBe(400);
      expect(JSON.stringify(res.body), message).toContain(JSON.stringify(message).slice(1, -1));
    }
    const first = await create(admin, base({ name: 'Unique name' }));
    expect(first.status).toBe(200);
    const again = await create(admin, base({ name: 'UNIQUE NAME' }));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(checkMessages.nameTaken);
    // a check id of another policy is not this policy's check
    const other = await create(admin, base());
    const foreign = await call('PUT', `/api/customer/monitoring-policies/${first.body.data.id}`, admin, {
      checks: [{ ...other.body.data.checks[0], id: other.body.data.checks[0]!.id }],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(checkMessages.checkNotFound);
  });

  it('lets administrators change, members read; a tenant target is for administrators of all sites', async () => {
    const p = (await create(admin, base({ name: 'Everything', target_type: 'tenant' }))).body.data;
    expect((await call('GET', `/api/customer/monitoring-policies/${p.id}`, tech)).status).toBe(200);
    expect((await create(tech, base())).status).toBe(403);
    expect(
      (await call('PUT', `/api/customer/monitoring-policies/${p.id}`, tech, { enabled: false })).status,
    ).toBe(403);
    expect((await call('DELETE', `/api/customer/monitoring-policies/${p.id}`, tech)).status).toBe(403);
    const tenantWide = await create(limited, base({ target_type: 'tenant' }));
    expect(tenantWide.status).toBe(403);
    expect(tenantWide.body.error).toBe(policyMessages.tenantTargetAdminOnly);
    expect(
      (await call('PUT', `/api/customer/monitoring-policies/${p.id}`, limited, { enabled: false })).status,
    ).toBe(404);
    expect(
      (await call('PUT', `/api/customer/monitoring-policies/${p.id}`, admin, { enabled: false })).status,
    ).toBe(200);
  });

  it("keeps a site-limited administrator to their sites' and groups' targets", async () => {
    const hqPolicy = (await create(admin, base())).body.data.id;
    const hqGroup = await insertGroup(server, tenantId, 'Mon HQ kiosks', hq);
    const londonGroup = await insertGroup(server, tenantId, 'Mon London kiosks', london);
    expect((await create(limited, base({ site_id: hq }))).status).toBe(404);
    expect((await create(limited, base({ target_type: 'group', group_id: hqGroup }))).status).toBe(404);
    const own = await create(limited, base({ name: 'London mon', site_id: london }));
    expect(own.status).toBe(200);
    const ownGroup = await create(
      limited,
      base({ name: 'London kiosks mon', target_type: 'group', group_id: londonGroup }),
    );
    expect(ownGroup.status).toBe(200);
    expect(ownGroup.body.data.target).toMatchObject({
      type: 'group',
      group_id: londonGroup,
      name: 'Mon London kiosks',
    });
    const list = await call<{ data: MonitoringPolicy[] }>(
      'GET',
      '/api/customer/monitoring-policies',
      limited,
    );
    expect(list.body.data.data.map((p) => p.name).sort()).toEqual(['London kiosks mon', 'London mon']);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect(
        (await call(method, `/api/customer/monitoring-policies/${hqPolicy}`, limited, body)).status,
      ).toBe(404);
    }
    const moved = await call('PUT', `/api/customer/monitoring-policies/${own.body.data.id}`, limited, {
      target_type: 'site',
      site_id: hq,
    });
    expect(moved.status).toBe(404);
  });

  it("answers 404 for another tenant's policy and devices", async () => {
    const p = (await create(admin, base({ name: 'Acme private mon' }))).body.data;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await call(method, `/api/customer/monitoring-policies/${p.id}`, globex, body)).status).toBe(
        404,
      );
    }
    const list = await call<{ data: MonitoringPolicy[] }>('GET', '/api/customer/monitoring-policies', globex);
    expect(list.body.data.data.map((x) => x.name)).not.toContain('Acme private mon');
    expect((await create(globex, base({ site_id: hq }))).status).toBe(404);
    const device = await insertDevice(server, { tenantId, hostname: 'mon-acme-1', siteId: hq });
    expect((await call('GET', `/api/customer/devices/${device.deviceGuid}/checks`, globex)).status).toBe(404);
    expect((await call('GET', '/api/customer/devices/not-a-guid/checks', admin)).status).toBe(404);
  });

  it("lists a device's checks: its site's and its groups' policies, deduplicated, with site scope", async () => {
    const device = await insertDevice(server, { tenantId, hostname: 'mon-london-1', siteId: london });
    const group = await insertGroup(server, tenantId, 'Mon London group', london);
    await addGroupMember(server, tenantId, group, device.id);
    const memory = { name: 'Memory', config: { type: 'memory' as const, percent: 90 } };
    const bySite = (await create(admin, base({ name: 'London site mon', site_id: london, checks: [memory] })))
      .body.data;
    await create(admin, {
      ...base({ name: 'London group mon', target_type: 'group', group_id: group }),
      checks: [
        { ...memory, name: 'Memory again' },
        { name: 'Port', config: { type: 'port', host: 'localhost', port: 443 } },
      ],
    });
    await create(admin, base({ name: 'Disabled mon', site_id: london, enabled: false }));
    const res = await call<{ data: DeviceCheck[] }>(
      'GET',
      `/api/customer/devices/${device.deviceGuid}/checks`,
      admin,
    );
    expect(res.status).toBe(200);
    // the earlier tests' London policies apply too: this test looks at its own
    const mine = new Set(['London site mon', 'London group mon', 'Disabled mon']);
    const checks = res.body.data.data.filter((c) => mine.has(c.policy_name));
    expect(checks.map((c) => [c.name, c.policy_name])).toEqual([
      ['Memory', 'London site mon'],
      ['Port', 'London group mon'],
    ]);
    expect(checks[0]).toMatchObject({
      check_id: bySite.checks[0]!.id,
      type: 'memory',
      summary: 'Memory in use above 90 %',
      state: null,
      since: null,
    });
    expect((await call('GET', `/api/customer/devices/${device.deviceGuid}/checks`, limited)).status).toBe(
      200,
    );
    const hqDevice = await insertDevice(server, { tenantId, hostname: 'mon-hq-1', siteId: hq });
    expect((await call('GET', `/api/customer/devices/${hqDevice.deviceGuid}/checks`, limited)).status).toBe(
      404,
    );
  });
});
