import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { ListData } from '@outpost/contract/envelope';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail, PackageExportDocument, PackageStep } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, devices, sites } from '../../db/schema/index';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// SECURITY.md R2-5: packages have an owner scope. A site-limited member reads shared packages
// but cannot change them (a shared package may later be deployed to any site by an all-sites
// administrator), builds packages only for their own sites, never sees other sites' packages,
// and a site's package is deployed only to that site's devices.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const API = '/api/customer/deployment-packages';

describe('package owner scope (R2-5)', () => {
  let server: TestServer;
  let admin: string;
  let adminName: string;
  let london: string;
  let twoSites: string;
  let hq: number;
  let lon: number;
  let dc: number;
  let globexSite: number;
  const agents: AgentSocket[] = [];

  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  const cmdStep = (name: string, command = 'echo hi') => ({
    step_name: name,
    step_type: 'CMD',
    step_details: JSON.stringify({ command }),
  });

  async function createPackage(token: string, body: Record<string, unknown> = {}) {
    const res = await call<PackageDetail>('POST', API, token, {
      name: `Scoped ${Math.random().toString(36).slice(2, 8)}`,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const step = await call<PackageStep>(
      'POST',
      `${API}/${res.body.data.id}/steps`,
      token,
      cmdStep('Install'),
    );
    expect(step.status).toBe(200);
    return get(res.body.data.id, token);
  }

  async function member(email: string, siteIds: number[]): Promise<string> {
    const res = await call('POST', '/api/customer/users', admin, {
      email,
      name: email.split('@')[0],
      role: 'user',
      site_access_type: 'specific',
      site_ids: siteIds,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (await server.devSignIn(email)).token;
  }

  async function deviceIn(siteId: number, hostname: string): Promise<number> {
    const token = (await createEnrollmentToken(server, admin, { site_id: siteId })).token;
    const creds = (await enroll(server, token, facts({ hostname }))).body.data;
    agents.push(await onlineAgent(server.url, creds, { hostname }));
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return row!.id;
  }

  const get = async (id: number, token = admin) =>
    (await call<PackageDetail>('GET', `${API}/${id}`, token)).body.data;

  beforeAll(async () => {
    server = await startTestServer({ env: { AGENT_PRESENCE_GRACE_MS: '0' } });
    const seeded = (await server.seedDemo())!;
    const signedIn = await server.devSignIn('admin@acme.example');
    admin = signedIn.token;
    adminName = signedIn.user.name ?? '';
    [hq, lon, dc] = seeded.siteIds as [number, number, number];
    const [other] = await server.database.db
      .insert(sites)
      .values({ tenantId: seeded.globexTenantId, siteName: 'Globex Plant', siteCode: 'GP1' })
      .returning({ id: sites.id });
    globexSite = other!.id;
    london = await member('london@acme.example', [lon]);
    twoSites = await member('two@acme.example', [lon, dc]);
  });
  afterAll(async () => {
    for (const agent of agents) {
      await agent.close();
    }
    await server?.close();
  });

  it('the attack: a site-limited member cannot change a shared package in any way (403, unchanged)', async () => {
    const shared = await createPackage(admin);
    const [step] = shared.steps;
    expect(shared.site_id).toBeNull();
    // they may read it
    expect((await call('GET', `${API}/${shared.id}`, london)).status).toBe(200);
    const attempts = [
      await call('PUT', `${API}/${shared.id}`, london, { name: 'Hijacked' }),
      await call('POST', `${API}/${shared.id}/steps`, london, cmdStep('Backdoor', 'net user x /add')),
      await call('PUT', `${API}/${shared.id}/steps/${step!.id}`, london, cmdStep('Backdoor', 'evil')),
      await call('PUT', `${API}/${shared.id}/steps/reorder`, london, {
        stepOrders: [{ id: step!.id, step_order: 1 }],
      }),
      await call('DELETE', `${API}/${shared.id}/steps/${step!.id}`, london),
      await call('DELETE', `${API}/${shared.id}`, london),
      // moving it into their own site would let them change it next
      await call('PUT', `${API}/${shared.id}`, london, { name: shared.name, site_id: lon }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(packageMessages.tenantWideReadOnly);
    }
    const after = await get(shared.id);
    expect(after.name).toBe(shared.name);
    expect(after.steps).toEqual(shared.steps);
    expect(after.updated_at).toBe(shared.updated_at);
    expect(after.updated_by_name).toBe(adminName);
  });

  it('a site-limited member builds packages only for their sites', async () => {
    const mine = await createPackage(london);
    expect(mine.site_id).toBe(lon);
    const explicit = await call<PackageDetail>('POST', API, london, { name: 'Mine too', site_id: lon });
    expect(explicit.body.data.site_id).toBe(lon);

    for (const site_id of [hq, null, globexSite]) {
      const res = await call('POST', API, london, { name: 'Elsewhere', site_id });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(packageMessages.siteOutsideScope);
    }
    const unsure = await call('POST', API, twoSites, { name: 'Which site?' });
    expect(unsure.status).toBe(400);
    expect(unsure.body.error).toBe(packageMessages.chooseSite);
    const chosen = await call<PackageDetail>('POST', API, twoSites, { name: 'DC tools', site_id: dc });
    expect(chosen.body.data.site_id).toBe(dc);

    // and changes them, moves them only between their own sites
    const renamed = await call<PackageDetail>('PUT', `${API}/${mine.id}`, london, { name: 'London tools' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.updated_by_name).toBe('london');
    const widened = await call('PUT', `${API}/${mine.id}`, london, { name: 'London tools', site_id: null });
    expect(widened.status).toBe(403);
    expect(widened.body.error).toBe(packageMessages.siteOutsideScope);
    expect((await call('POST', `${API}/${mine.id}/steps`, london, cmdStep('Second'))).status).toBe(200);
    expect((await get(mine.id)).site_id).toBe(lon);
  });

  it("another site's package does not exist for a site-limited member (404 on every route)", async () => {
    const hqPackage = await createPackage(admin, { site_id: hq });
    const step = hqPackage.steps[0]!;
    const routes: [string, string, unknown?][] = [
      ['GET', `${API}/${hqPackage.id}`],
      ['PUT', `${API}/${hqPackage.id}`, { name: 'x' }],
      ['DELETE', `${API}/${hqPackage.id}`],
      ['GET', `${API}/${hqPackage.id}/export`],
      ['POST', `${API}/${hqPackage.id}/duplicate`, {}],
      ['POST', `${API}/${hqPackage.id}/steps`, cmdStep('x')],
      ['PUT', `${API}/${hqPackage.id}/steps/${step.id}`, cmdStep('x')],
      ['DELETE', `${API}/${hqPackage.id}/steps/${step.id}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(method, path, london, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const listed = await call<ListData<PackageDetail>>('GET', `${API}?limit=100`, london);
    const ids = listed.body.data.data.map((p) => p.id);
    expect(ids).not.toContain(hqPackage.id);
    expect(listed.body.data.data.every((p) => p.site_id === null || p.site_id === lon)).toBe(true);
    expect(listed.body.data.data.some((p) => p.site_id === null)).toBe(true);
    // all-sites members see it
    const all = await call<ListData<PackageDetail>>('GET', `${API}?limit=100`, admin);
    expect(all.body.data.data.map((p) => p.id)).toContain(hqPackage.id);
  });

  it('a copy or an import by a site-limited member belongs to their site', async () => {
    const shared = await createPackage(admin);
    const copy = await call<PackageDetail>('POST', `${API}/${shared.id}/duplicate`, london, {});
    expect(copy.status).toBe(200);
    expect(copy.body.data.site_id).toBe(lon);
    expect(copy.body.data.step_count).toBe(1);
    expect((await call('POST', `${API}/${copy.body.data.id}/steps`, london, cmdStep('Mine'))).status).toBe(
      200,
    );

    const doc = (
      await server.request<PackageExportDocument>('GET', `${API}/${shared.id}/export`, { token: admin })
    ).body;
    const imported = await call<PackageDetail>('POST', `${API}/import`, london, doc);
    expect(imported.body.data.site_id).toBe(lon);
    const elsewhere = await call('POST', `${API}/import?site_id=${hq}`, london, doc);
    expect(elsewhere.status).toBe(403);
    const asAdmin = await call<PackageDetail>('POST', `${API}/import?site_id=${dc}`, admin, doc);
    expect(asAdmin.body.data.site_id).toBe(dc);
  });

  it('an all-sites administrator sets and changes the scope of any package, within the tenant', async () => {
    const pkg = await createPackage(admin, { site_id: hq });
    expect(pkg.site_id).toBe(hq);
    const shared = await call<PackageDetail>('PUT', `${API}/${pkg.id}`, admin, {
      name: pkg.name,
      site_id: null,
    });
    expect(shared.body.data.site_id).toBeNull();
    const other = await call('PUT', `${API}/${pkg.id}`, admin, { name: pkg.name, site_id: globexSite });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe(packageMessages.siteNotFound);
    const londonOwned = await createPackage(london);
    const changed = await call('PUT', `${API}/${londonOwned.id}`, admin, { name: 'Checked by IT' });
    expect(changed.status).toBe(200);
  });

  it('audit entries of package changes carry the package site', async () => {
    const pkg = await createPackage(london);
    await call('PUT', `${API}/${pkg.id}`, london, { name: 'Audited London package' });
    const [entry] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'Update Package'), eq(auditLogs.resourceId, String(pkg.id))))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(JSON.parse(entry!.newValues ?? '{}')).toMatchObject({ site_id: lon });
    expect(JSON.parse(entry!.oldValues ?? '{}')).toMatchObject({ site_id: lon });
    expect(entry!.siteIds).toEqual([lon]);
    const [step] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'Add Package Step'), eq(auditLogs.resourceId, String(pkg.id))))
      .limit(1);
    expect(step!.siteIds).toEqual([lon]);
  });

  it("a site's package deploys only to that site's devices; a deploy shows who changed it since", async () => {
    const lonDevice = await deviceIn(lon, 'scope-lon-1');
    const hqDevice = await deviceIn(hq, 'scope-hq-1');
    const pkg = await createPackage(london);
    expect(pkg.last_deployed_at).toBeNull();

    const refused = await call('POST', '/api/customer/deployments', admin, {
      package_id: pkg.id,
      device_ids: [lonDevice, hqDevice],
      job_name: 'Too wide',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(packageMessages.deployOutsideSite('London Office', ['scope-hq-1']));

    const deploy = () =>
      call<DeploymentJob>('POST', '/api/customer/deployments', admin, {
        package_id: pkg.id,
        device_ids: [lonDevice],
        job_name: `London ${Date.now()}`,
      });
    const first = await deploy();
    expect(first.status).toBe(200);
    const deployed = await get(pkg.id);
    expect(deployed.last_deployed_at).not.toBeNull();
    expect(deployed.is_changed_since_deploy).toBe(false);

    // the site member changes it after the administrator deployed it …
    expect((await call('POST', `${API}/${pkg.id}/steps`, london, cmdStep('Added later'))).status).toBe(200);
    const changed = await get(pkg.id);
    expect(changed.is_changed_since_deploy).toBe(true);
    expect(changed.updated_by_name).toBe('london');
    const listed = await call<ListData<PackageDetail>>('GET', `${API}?limit=100`, admin);
    expect(listed.body.data.data.find((p) => p.id === pkg.id)).toMatchObject({
      is_changed_since_deploy: true,
      updated_by_name: 'london',
    });

    // … and the next deployment takes that version
    await server.request('POST', `/api/customer/deployments/${first.body.data.id}/cancel`, { token: admin });
    const second = await deploy();
    expect(second.status).toBe(200);
    expect((await get(pkg.id)).is_changed_since_deploy).toBe(false);
    await server.request('POST', `/api/customer/deployments/${second.body.data.id}/cancel`, { token: admin });
  });

  it('a site-limited member cannot deploy another site’s package (404)', async () => {
    const hqPackage = await createPackage(admin, { site_id: hq });
    const lonDevice = await deviceIn(lon, 'scope-lon-2');
    const res = await call('POST', '/api/customer/deployments', london, {
      package_id: hqPackage.id,
      device_ids: [lonDevice],
      job_name: 'Not theirs',
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(packageMessages.packageNotFound);
  });
});
