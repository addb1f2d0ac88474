import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FleetSoftwareResponse, SoftwareDevicesResponse } from '@outpost/contract/software';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deviceSoftware, users, userSites } from '../../db/schema/index';
import { insertDevice } from '../../../test/support/devices';
import { csvObjects, parseCsv } from '../../../test/support/csv';

// The fleet's software (docs/product/device-sets.md#fleet-software): titles with versions and
// device counts, search, sort, the devices of a title, the CSV exports, and site scope.

type Envelope<T> = { success: boolean; data: T; error?: string };

describe('fleet software API', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let hq: number;
  let lon: number;

  const get = <T>(path: string, token = admin) => server.request<Envelope<T>>('GET', path, { token });
  const csv = (path: string, token = admin) =>
    server.request<string>('GET', path, { token, headers: { accept: 'text/csv' } });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    const install = async (deviceId: number, tenantId: number, titles: [string, string, string?][]) => {
      await server.database.db.insert(deviceSoftware).values(
        titles.map(([name, version, publisher]) => ({
          tenantId,
          deviceId,
          name,
          version,
          publisher: publisher ?? 'Acme Soft',
        })),
      );
    };
    // 3 HQ devices, 2 London devices, 1 without a site
    for (let i = 0; i < 3; i++) {
      const d = await insertDevice(server, {
        tenantId: acme,
        hostname: `hq-${i}`,
        siteId: hq,
        status: 'online',
      });
      await install(d.id, acme, [
        ['Browser', i === 0 ? '2.0' : '1.0'],
        ['Office Suite', '16', 'Big Vendor'],
      ]);
    }
    for (let i = 0; i < 2; i++) {
      const d = await insertDevice(server, { tenantId: acme, hostname: `lon-${i}`, siteId: lon });
      await install(d.id, acme, [
        ['Browser', '1.0'],
        ['=HYPERLINK("x")', ''],
      ]);
    }
    const loose = await insertDevice(server, { tenantId: acme, hostname: 'loose-1' });
    await install(loose.id, acme, [['Zip Tool', '9']]);
    const g = await insertDevice(server, { tenantId: demo.globexTenantId, hostname: 'globex-1' });
    await install(g.id, demo.globexTenantId, [['Globex Secret', '1']]);
    // these rows were written directly: count them as the migration's backfill does
    await server.database.db.execute(sql`
      insert into software_versions (tenant_id, site_key, name, version, publisher, device_count)
      select s.tenant_id, coalesce(d.site_id, 0), s.name, s.version, max(s.publisher), count(*)::int
      from device_software s join devices d on d.id = s.device_id group by 1, 2, 3, 4`);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists titles with their versions, sorted by name or by devices, and searches', async () => {
    const byName = (await get<FleetSoftwareResponse>('/api/customer/software')).body.data;
    expect(byName.data.map((t) => t.name)).toEqual([
      '=HYPERLINK("x")',
      'Browser',
      'Office Suite',
      'Zip Tool',
    ]);
    expect(byName.pagination.total).toBe(4);
    expect(byName.data[1]).toEqual({
      name: 'Browser',
      publisher: 'Acme Soft',
      device_count: 5,
      versions: [
        { version: '1.0', device_count: 4 },
        { version: '2.0', device_count: 1 },
      ],
    });
    const byDevices = (await get<FleetSoftwareResponse>('/api/customer/software?sort=devices&limit=2')).body
      .data;
    expect(byDevices.data.map((t) => t.name)).toEqual(['Browser', 'Office Suite']);
    expect(byDevices.pagination).toMatchObject({ total: 4, totalPages: 2 });
    const search = (await get<FleetSoftwareResponse>('/api/customer/software?search=big%20vend')).body.data;
    expect(search.data.map((t) => t.name)).toEqual(['Office Suite']);
    expect((await get('/api/customer/software?sort=size')).status).toBe(400);
  });

  it('lists the devices of a title or one version, paged', async () => {
    const all = (await get<SoftwareDevicesResponse>('/api/customer/software/devices?name=Browser&limit=2'))
      .body.data;
    expect(all.pagination).toMatchObject({ total: 5, totalPages: 3 });
    expect(all.data.map((d) => d.hostname)).toEqual(['hq-0', 'hq-1']);
    const v2 = (await get<SoftwareDevicesResponse>('/api/customer/software/devices?name=Browser&version=2.0'))
      .body.data;
    expect(v2.data.map((d) => [d.hostname, d.version, d.site_name])).toEqual([
      ['hq-0', '2.0', 'Headquarters'],
    ]);
    const none = (await get<SoftwareDevicesResponse>('/api/customer/software/devices?name=Nothing')).body
      .data;
    expect(none).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await get('/api/customer/software/devices')).status).toBe(400);
  });

  it('exports the list and a title’s devices as CSV, formulas neutralised', async () => {
    const list = await csv('/api/customer/software');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-disposition')).toMatch(/filename="software-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(parseCsv(list.body)).toEqual([
      ['Title', 'Publisher', 'Version', 'Devices'],
      [`'=HYPERLINK("x")`, 'Acme Soft', '', '2'],
      ['Browser', 'Acme Soft', '1.0', '4'],
      ['Browser', 'Acme Soft', '2.0', '1'],
      ['Office Suite', 'Big Vendor', '16', '3'],
      ['Zip Tool', 'Acme Soft', '9', '1'],
    ]);
    const devices = csvObjects((await csv('/api/customer/software/devices?name=Browser&version=1.0')).body);
    expect(devices.map((d) => d.Hostname).sort()).toEqual(['hq-1', 'hq-2', 'lon-0', 'lon-1']);
    expect(devices[0]).toMatchObject({ Title: 'Browser', Version: '1.0' });
  });

  it('counts and lists only a site-limited user’s sites; another tenant sees none of it', async () => {
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
      const list = (await get<FleetSoftwareResponse>('/api/customer/software', tech)).body.data;
      expect(list.data.map((t) => [t.name, t.device_count])).toEqual([
        ['=HYPERLINK("x")', 2],
        ['Browser', 2],
      ]);
      const devices = (
        await get<SoftwareDevicesResponse>('/api/customer/software/devices?name=Browser', tech)
      ).body.data;
      expect(devices.data.map((d) => d.hostname)).toEqual(['lon-0', 'lon-1']);
      expect(devices.pagination.total).toBe(2);
      const exported = csvObjects((await csv('/api/customer/software/devices?name=Browser', tech)).body);
      expect(exported.map((d) => d.Hostname).sort()).toEqual(['lon-0', 'lon-1']);
      expect(parseCsv((await csv('/api/customer/software', tech)).body)).toHaveLength(3);
    } finally {
      await server.database.db.update(users).set({ siteAccessType: 'all' }).where(eq(users.id, techRow!.id));
    }
    const globex = (await get<FleetSoftwareResponse>('/api/customer/software', globexAdmin)).body.data;
    expect(globex.data.map((t) => t.name)).toEqual(['Globex Secret']);
    const leak = (
      await get<SoftwareDevicesResponse>('/api/customer/software/devices?name=Browser', globexAdmin)
    ).body.data;
    expect(leak.data).toEqual([]);
  });
});
