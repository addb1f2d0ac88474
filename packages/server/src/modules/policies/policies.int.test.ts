import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Policy, PolicyCreateBody, PolicyDetail } from '@outpost/contract/policies';
import { policyMessages } from '@outpost/contract/policies';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createPackage, createPolicy, insertGroup, insertSite } from '../../../test/support/policies';
import type { Envelope } from '../../../test/support/policies';
import { auditLogs } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';
import { addMember } from '../tenants/tenants.service';

// docs/product/device-sets.md#automation-policies: who may manage which policy, input checks
// with clear messages, audit entries, and another tenant's or site's policy reads as not found.

describe('automation policies: routes, scope and roles', () => {
  let server: TestServer;
  let admin: string, tech: string, limited: string, globex: string;
  let tenantId: number;
  let hq: number, london: number;
  let shared: number, londonPkg: number;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const base = (over: Partial<PolicyCreateBody> = {}): PolicyCreateBody => ({
    name: 'Weekly',
    target_type: 'site',
    site_id: hq,
    package_id: shared,
    trigger: 'schedule',
    schedule: { frequency: 'weekly', time: '02:30', weekdays: [3, 1, 1] },
    ...over,
  });

  beforeAll(async () => {
    server = await startTestServer({ env: { POLICY_SCHEDULER_INTERVAL_MS: '300000' } });
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, { tenantId, email: 'pol-limited@acme.example', siteIds: [london] });
    limited = (await server.devSignIn('pol-limited@acme.example')).token;
    shared = await createPackage(server, admin, 'Shared policy package');
    londonPkg = await createPackage(server, admin, 'London package', london);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a weekly policy with its next run and schedule, audited', async () => {
    const res = await createPolicy(server, admin, base());
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p.schedule).toEqual({ frequency: 'weekly', time: '02:30', weekdays: [1, 3] });
    expect(p.target).toMatchObject({ type: 'site', site_id: hq });
    expect(p.enabled).toBe(true);
    expect(p.next_run_at).not.toBeNull();
    expect(Date.parse(p.next_run_at!)).toBeGreaterThan(Date.now());
    expect(p.jobs).toEqual([]);
    const entries = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'Create Policy'), eq(auditLogs.resourceId, String(p.id))));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.siteIds).toEqual([hq]);

    const updated = await call<PolicyDetail>('PUT', `/api/customer/policies/${p.id}`, admin, {
      name: 'Monthly',
      schedule: { frequency: 'monthly', time: '23:00', day_of_month: 'last' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.name).toBe('Monthly');
    const off = await call<PolicyDetail>('POST', `/api/customer/policies/${p.id}/disable`, admin);
    expect(off.body.data.enabled).toBe(false);
    expect(off.body.data.next_run_at).toBeNull();
    const on = await call<PolicyDetail>('POST', `/api/customer/policies/${p.id}/enable`, admin);
    expect(on.body.data.enabled).toBe(true);
    expect((await call('DELETE', `/api/customer/policies/${p.id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/customer/policies/${p.id}`, admin)).status).toBe(404);
  });

  it('refuses bad input with clear messages', async () => {
    const cases: [Partial<PolicyCreateBody> | Record<string, unknown>, string][] = [
      [{ name: '  ' }, policyMessages.nameRequired],
      [{ schedule: null }, policyMessages.scheduleRequired],
      [{ schedule: { frequency: 'weekly', time: '02:30', weekdays: [] } }, policyMessages.weekdaysRequired],
      [{ schedule: { frequency: 'daily', time: '25:00' } }, policyMessages.timeInvalid],
      [
        { schedule: { frequency: 'monthly', time: '01:00', day_of_month: 30 } },
        policyMessages.dayOfMonthInvalid,
      ],
      [{ target_type: 'site', site_id: null }, policyMessages.siteRequired],
      [{ target_type: 'group', group_id: undefined }, policyMessages.groupRequired],
      [{ target_type: 'planet' }, 'Target must be the whole organisation, a site or a group'],
    ];
    for (const [over, message] of cases) {
      const res = await createPolicy(server, admin, { ...base(), ...over });
      expect(res.status, message).toBe(400);
      expect(JSON.stringify(res.body), message).toContain(JSON.stringify(message).slice(1, -1));
    }
    const wrongSite = await createPolicy(server, admin, base({ package_id: londonPkg }));
    expect(wrongSite.status).toBe(409);
    expect(wrongSite.body.error).toContain('must target that site');
    expect((await createPolicy(server, admin, base({ package_id: 999_999 }))).status).toBe(404);
  });

  it('lets only administrators of all sites target the tenant or a tenant-wide group', async () => {
    const group = await insertGroup(server, tenantId, 'Everyone', null);
    for (const token of [tech, limited]) {
      for (const over of [
        { target_type: 'tenant' as const },
        { target_type: 'group' as const, group_id: group },
      ]) {
        const res = await createPolicy(server, token, base(over));
        expect([403, 404]).toContain(res.status);
      }
    }
    expect((await createPolicy(server, tech, base({ target_type: 'tenant' }))).body.error).toBe(
      policyMessages.tenantTargetAdminOnly,
    );
    const tenantWide = await createPolicy(server, admin, base({ name: 'All', target_type: 'tenant' }));
    expect(tenantWide.status).toBe(200);
    const id = tenantWide.body.data.id;
    // a regular member reads it but does not change it
    expect((await call('GET', `/api/customer/policies/${id}`, tech)).status).toBe(200);
    expect((await call('POST', `/api/customer/policies/${id}/disable`, tech)).status).toBe(403);
    expect((await call('PUT', `/api/customer/policies/${id}`, tech, { name: 'Mine' })).status).toBe(403);
    expect((await call('DELETE', `/api/customer/policies/${id}`, tech)).status).toBe(403);
    // a regular member of all sites manages a site's policy
    expect((await createPolicy(server, tech, base({ name: 'Tech site' }))).status).toBe(200);
  });

  it("keeps a site-limited member to their sites' policies and groups", async () => {
    const hqPolicy = (await createPolicy(server, admin, base({ name: 'HQ only' }))).body.data.id;
    const hqGroup = await insertGroup(server, tenantId, 'HQ kiosks', hq);
    const londonGroup = await insertGroup(server, tenantId, 'London kiosks', london);
    expect((await createPolicy(server, limited, base({ site_id: hq }))).status).toBe(404);
    expect(
      (await createPolicy(server, limited, base({ target_type: 'group', group_id: hqGroup }))).status,
    ).toBe(404);
    const own = await createPolicy(
      server,
      limited,
      base({ name: 'London', site_id: london, package_id: londonPkg }),
    );
    expect(own.status).toBe(200);
    const ownGroup = await createPolicy(
      server,
      limited,
      base({
        name: 'London group',
        target_type: 'group',
        group_id: londonGroup,
        trigger: 'join',
        schedule: null,
      }),
    );
    expect(ownGroup.status).toBe(200);
    expect(ownGroup.body.data.schedule).toBeNull();
    const list = await call<Policy[]>('GET', '/api/customer/policies', limited);
    expect(list.body.data.map((p) => p.name).sort()).toEqual(['London', 'London group']);
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['GET', '/jobs', undefined],
      ['PUT', '', { name: 'x' }],
      ['POST', '/enable', undefined],
      ['POST', '/disable', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const res = await call(method, `/api/customer/policies/${hqPolicy}${suffix}`, limited, body);
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    // moving their policy to another site is refused as that site is not found
    const moved = await call('PUT', `/api/customer/policies/${own.body.data.id}`, limited, {
      target_type: 'site',
      site_id: hq,
    });
    expect(moved.status).toBe(404);
  });

  it("answers 404 for another tenant's policy on every route", async () => {
    const id = (await createPolicy(server, admin, base({ name: 'Acme private' }))).body.data.id;
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['GET', '/jobs', undefined],
      ['PUT', '', { name: 'x' }],
      ['POST', '/enable', undefined],
      ['POST', '/disable', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const res = await call(method, `/api/customer/policies/${id}${suffix}`, globex, body);
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    const list = await call<Policy[]>('GET', '/api/customer/policies', globex);
    expect(list.body.data.map((p) => p.name)).not.toContain('Acme private');
    // nor may another tenant's site, group or package be named
    const other = await insertSite(server, tenantId, 'ACX', null);
    expect((await createPolicy(server, globex, base({ site_id: other }))).status).toBe(404);
  });
});
