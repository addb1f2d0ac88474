import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PolicyDetail } from '@outpost/contract/policies';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { createEnrollmentToken, enroll, facts } from '../../../test/support/live';
import {
  addMember,
  createPackage,
  createPolicy,
  insertGroup,
  insertSite,
  jobsOf,
  removeMember,
  testRunner,
} from '../../../test/support/policies';
import type { Envelope } from '../../../test/support/policies';
import { devices, policies } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';

// docs/product/device-sets.md#automation-policies: scheduled occurrences in each site's time zone
// create one deployment job with the target's members at run time; "when a device joins" runs
// once per device and package version. Passes run at a time the test chooses (the injected
// clock); the server's own timer is slowed down so it stays out of the way.

const at = (text: string) => Date.parse(text);

describe('automation policy runs', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let berlin: number;
  let other: number;
  let pkg: number;
  let runner: ReturnType<typeof testRunner>;

  const device = async (hostname: string, siteId: number | null) =>
    (await insertDevice(server, { tenantId, hostname, siteId, osType: 'windows' })).id;
  const setActiveSince = (id: number, when: string) =>
    server.database.db
      .update(policies)
      .set({ activeSince: new Date(when) })
      .where(eq(policies.id, id));

  beforeAll(async () => {
    server = await startTestServer({ env: { POLICY_SCHEDULER_INTERVAL_MS: '300000' } });
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    berlin = await insertSite(server, tenantId, 'BER', 'Europe/Berlin');
    other = await insertSite(server, tenantId, 'OTH', null);
    pkg = await createPackage(server, admin, 'Policy package');
    runner = testRunner(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs a weekly occurrence once, with the members at run time, at 03:30 CEST across the March gap', async () => {
    const d1 = await device('ber-1', berlin);
    const d2 = await device('ber-2', berlin);
    await device('oth-1', other);
    const res = await createPolicy(server, admin, {
      name: 'Sunday patch',
      target_type: 'site',
      site_id: berlin,
      package_id: pkg,
      trigger: 'schedule',
      schedule: { frequency: 'weekly', time: '02:30', weekdays: [0] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data.id;
    expect(res.body.data.next_runs.map((n) => n.time_zone)).toEqual(['Europe/Berlin']);
    await setActiveSince(id, '2026-03-20T00:00:00Z');
    const d3 = await device('ber-3', berlin); // joins the site before the occurrence

    // 02:30 on Sunday 29 March 2026 does not exist in Berlin: it runs at 03:30 CEST (01:30 UTC)
    expect(await runner.pass(at('2026-03-29T01:29:00Z'))).toBe(0);
    expect(await runner.pass(at('2026-03-29T01:31:00Z'))).toBe(1);
    expect(await runner.pass(at('2026-03-29T01:32:00Z'))).toBe(0);
    const jobs = await jobsOf(server, id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.deviceIds).toEqual([d1, d2, d3].sort((a, b) => a - b));
    expect(jobs[0]!.name).toBe('Sunday patch (2026-03-29 03:30 Europe/Berlin)');

    // missed by more than six hours: skipped; missed by less: run once, late
    expect(await runner.pass(at('2026-04-05T07:00:00Z'))).toBe(0);
    expect(await runner.pass(at('2026-04-12T03:00:00Z'))).toBe(1);
    expect(await runner.pass(at('2026-04-12T03:01:00Z'))).toBe(0);

    const detail = await server.request<Envelope<PolicyDetail>>('GET', `/api/customer/policies/${id}`, {
      token: admin,
    });
    expect(detail.body.data.jobs).toHaveLength(2);
    expect(detail.body.data.last_run_at).not.toBeNull();
    const listed = await server.request<Envelope<unknown[]>>('GET', `/api/customer/policies/${id}/jobs`, {
      token: admin,
    });
    expect(listed.body.data).toHaveLength(2);
    // each job names the policy that created it
    const jobId = (listed.body.data[0] as { id: number }).id;
    const job = await server.request<Envelope<{ policy_id: number | null; created_by_name: string }>>(
      'GET',
      `/api/customer/deployments/${jobId}`,
      { token: admin },
    );
    expect(job.body.data.policy_id).toBe(id);
    expect(job.body.data.created_by_name).toBe('Policy: Sunday patch');

    // disabled, it runs no more
    expect(
      (await server.request('POST', `/api/customer/policies/${id}/disable`, { token: admin })).status,
    ).toBe(200);
    expect(await runner.pass(at('2026-04-19T00:31:00Z'))).toBe(0);
    expect(await jobsOf(server, id)).toHaveLength(2);
  });

  it('runs a group spanning time zones once per zone, devices without a time zone in UTC', async () => {
    const b = await device('zone-ber', berlin);
    const u = await device('zone-utc', other);
    const group = await insertGroup(server, tenantId, 'Zones', null);
    await addMember(server, tenantId, group, b);
    await addMember(server, tenantId, group, u);
    const res = await createPolicy(server, admin, {
      name: 'Nightly',
      target_type: 'group',
      group_id: group,
      package_id: pkg,
      trigger: 'schedule',
      schedule: { frequency: 'daily', time: '02:30' },
    });
    expect(res.status).toBe(200);
    const id = res.body.data.id;
    expect(res.body.data.next_runs.map((n) => n.time_zone)).toEqual(['Europe/Berlin', 'UTC']);
    await setActiveSince(id, '2026-05-31T00:00:00Z');
    expect(await runner.pass(at('2026-06-01T00:31:00Z'))).toBe(1); // 02:30 CEST
    expect(await runner.pass(at('2026-06-01T02:31:00Z'))).toBe(1); // 02:30 UTC
    expect((await jobsOf(server, id)).map((j) => j.deviceIds)).toEqual([[b], [u]]);
    await server.request('POST', `/api/customer/policies/${id}/disable`, { token: admin });
  });

  it('deploys to each device joining a group once per package version', async () => {
    const early = await device('grp-early', berlin);
    const late = await device('grp-late', berlin);
    const group = await insertGroup(server, tenantId, 'Kiosks', berlin);
    await addMember(server, tenantId, group, early, new Date(Date.now() - 60_000));
    const res = await createPolicy(server, admin, {
      name: 'Kiosk setup',
      target_type: 'group',
      group_id: group,
      package_id: pkg,
      trigger: 'join',
    });
    expect(res.status).toBe(200);
    const id = res.body.data.id;
    expect(res.body.data.next_run_at).toBeNull();
    await runner.pass(Date.now());
    expect(await jobsOf(server, id)).toHaveLength(0); // the early member was there before

    await addMember(server, tenantId, group, late, new Date(Date.now() + 1000));
    await runner.pass(Date.now());
    await runner.pass(Date.now());
    expect((await jobsOf(server, id)).map((j) => j.deviceIds)).toEqual([[late]]);

    // re-evaluated (left and joined again): not again for the same version
    await removeMember(server, group, late);
    await addMember(server, tenantId, group, late, new Date(Date.now() + 2000));
    await runner.pass(Date.now());
    expect(await jobsOf(server, id)).toHaveLength(1);

    // a new package version: again, for the devices that joined
    const put = await server.request('PUT', `/api/customer/deployment-packages/${pkg}`, {
      token: admin,
      body: { name: 'Policy package', package_version: '2.0.0' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await runner.pass(Date.now());
    await runner.pass(Date.now());
    expect((await jobsOf(server, id)).map((j) => j.deviceIds)).toEqual([[late], [late]]);
  });

  it('deploys to a device newly enrolled into the site, once', async () => {
    const site = await insertSite(server, tenantId, 'ENR', 'America/New_York');
    const res = await createPolicy(server, admin, {
      name: 'Onboarding',
      target_type: 'site',
      site_id: site,
      package_id: pkg,
      trigger: 'join',
    });
    const id = res.body.data.id;
    await setActiveSince(id, new Date(Date.now() - 5000).toISOString());
    const token = (await createEnrollmentToken(server, admin, { site_id: site })).token;
    const enrolled = (await enroll(server, token, facts({ hostname: 'enr-new' }))).body.data;
    const [row] = await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.deviceGuid, enrolled.device_guid));
    await runner.pass(Date.now());
    await runner.pass(Date.now());
    expect((await jobsOf(server, id)).map((j) => j.deviceIds)).toEqual([[row!.id]]);
  });
});
