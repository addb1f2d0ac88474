import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDetail } from '@outpost/contract/groups';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { csvObjects } from '../../../test/support/csv';
import { addMember } from '../tenants/tenants.service';

// A group's members as CSV (docs/product/device-sets.md#exports): GET /groups/:id/members with
// Accept: text/csv answers the members the caller may see, with the device list's columns.

type Envelope<T> = { success: boolean; data: T; error?: string };
const API = '/api/customer/groups';

describe("a group's members as CSV", () => {
  let server: TestServer;
  let admin: string, limited: string, globex: string;
  let group: GroupDetail;

  const csv = (token: string, id = group.id) =>
    server.request<string>('GET', `${API}/${id}/members`, { token, headers: { accept: 'text/csv' } });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    const tenantId = demo.acmeTenantId;
    const [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, { tenantId, email: 'lon-csv@acme.example', siteIds: [lon] });
    limited = (await server.devSignIn('lon-csv@acme.example')).token;
    const ids = [
      (await insertDevice(server, { tenantId, siteId: hq, hostname: 'csv-hq-1' })).id,
      (await insertDevice(server, { tenantId, siteId: lon, hostname: '=csv-lon-1' })).id,
    ];
    await insertDevice(server, { tenantId, siteId: hq, hostname: 'csv-not-member' });
    const created = await server.request<Envelope<GroupDetail>>('POST', API, {
      token: admin,
      body: { name: 'Export pilot', kind: 'static' },
    });
    group = created.body.data;
    await server.request('POST', `${API}/${group.id}/members`, { token: admin, body: { device_ids: ids } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the members with the device columns, formulas neutralised, named after the group', async () => {
    const res = await csv(admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/filename="group-Export-pilot.*\.csv"/);
    const rows = csvObjects(res.body);
    expect(rows.map((r) => r.Hostname)).toEqual(["'=csv-lon-1", 'csv-hq-1']);
  });

  it("shows a site-limited user their sites' members only; another tenant gets 404", async () => {
    expect(csvObjects((await csv(limited)).body).map((r) => r.Hostname)).toEqual(["'=csv-lon-1"]);
    expect((await csv(globex)).status).toBe(404);
  });
});
