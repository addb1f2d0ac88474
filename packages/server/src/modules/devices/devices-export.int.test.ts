import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { customFields, deviceFieldValues, deviceTags, tags, users, userSites } from '../../db/schema/index';
import { insertDevice } from '../../../test/support/devices';
import { csvObjects, parseCsv } from '../../../test/support/csv';

// The device list as CSV (docs/product/device-sets.md#exports): GET /api/customer/devices with
// Accept: text/csv answers every device the list's filters match, in its order, in the caller's
// scope, with tags and a column per custom field.

describe('device list CSV export', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let hq: number;
  let lon: number;

  const exportCsv = (query: string, token = admin) =>
    server.request<string>('GET', `/api/customer/devices${query}`, {
      token,
      headers: { accept: 'text/csv' },
    });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    // 1,203 HQ devices (more than a page of the walk), 3 in London, 2 without a site or hostname
    const db = server.database.db;
    const { devices } = await import('../../db/schema/index');
    await db.insert(devices).values(
      Array.from({ length: 1203 }, (_, i) => ({
        tenantId: acme,
        siteId: hq,
        deviceGuid: crypto.randomUUID(),
        secretHash: 'x',
        hostname: `hq-${String(i).padStart(4, '0')}`,
        status: i % 2 === 0 ? ('online' as const) : ('offline' as const),
        osType: 'windows',
      })),
    );
    const lonIds: number[] = [];
    for (const hostname of ['=cmd|calc', 'LON-2', 'lon-3, "x"']) {
      lonIds.push(
        (await insertDevice(server, { tenantId: acme, hostname, siteId: lon, status: 'online' })).id,
      );
    }
    await insertDevice(server, { tenantId: acme, hostname: null as never, status: 'offline' });
    await insertDevice(server, { tenantId: acme, hostname: null as never, status: 'offline' });
    await insertDevice(server, { tenantId: demo.globexTenantId, hostname: 'globex-1' });
    // tags and custom fields (written here as their modules would)
    const [red, blue] = await db
      .insert(tags)
      .values([
        { tenantId: acme, name: 'Red', color: 'red' },
        { tenantId: acme, name: 'blue', color: 'blue' },
      ])
      .returning();
    await db.insert(deviceTags).values([
      { tenantId: acme, deviceId: lonIds[1]!, tagId: red!.id },
      { tenantId: acme, deviceId: lonIds[1]!, tagId: blue!.id },
    ]);
    const [owner, room] = await db
      .insert(customFields)
      .values([
        { tenantId: acme, key: 'owner', name: 'Owner', fieldType: 'text', position: 1 },
        { tenantId: acme, key: 'room', name: 'Room', fieldType: 'text', position: 2, defaultValue: 'none' },
      ])
      .returning();
    await db.insert(deviceFieldValues).values([
      { tenantId: acme, deviceId: lonIds[1]!, fieldId: owner!.id, valueText: '@alice' },
      { tenantId: acme, deviceId: lonIds[1]!, fieldId: room!.id, valueText: 'B12' },
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers every device in list order, with headers for a download', async () => {
    const r = await exportCsv('');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toMatch(
      /^attachment; filename="devices-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parseCsv(r.body);
    expect(header).toEqual([
      'Hostname',
      'Device ID',
      'Status',
      'OS',
      'OS version',
      'Architecture',
      'IP address',
      'Site',
      'Serial number',
      'Manufacturer',
      'Model',
      'Agent version',
      'Last seen',
      'Enrolled',
      'Tags',
      'Owner',
      'Room',
    ]);
    expect(rows).toHaveLength(1203 + 3 + 2);
    const hosts = rows.map((row) => row[0]);
    // hostname order (case-insensitive), the devices without a hostname last
    expect(hosts.slice(0, 3)).toEqual(["'=cmd|calc", 'hq-0000', 'hq-0001']);
    expect(hosts.slice(-4)).toEqual(['LON-2', 'lon-3, "x"', '', '']);
    expect(new Set(rows.map((row) => row[1])).size).toBe(rows.length);
  });

  it('writes tags, custom fields (with their default) and neutralises formulas', async () => {
    const rows = csvObjects((await exportCsv('?site_id=' + lon)).body);
    expect(rows.map((row) => row.Hostname)).toEqual(["'=cmd|calc", 'LON-2', 'lon-3, "x"']);
    const lon2 = rows[1]!;
    expect(lon2).toMatchObject({ Tags: 'blue; Red', Owner: "'@alice", Room: 'B12', Status: 'online' });
    expect(rows[0]).toMatchObject({ Tags: '', Owner: '', Room: 'none' });
  });

  it('applies the list filters: status, search, site', async () => {
    const online = csvObjects((await exportCsv('?status=offline&site_id=' + hq)).body);
    expect(online).toHaveLength(601);
    expect(online.every((row) => row.Status === 'offline')).toBe(true);
    const searched = csvObjects((await exportCsv('?search=hq-000')).body);
    expect(searched.map((row) => row.Hostname)).toEqual(Array.from({ length: 10 }, (_, i) => `hq-000${i}`));
    // page and limit are the list's, not the export's
    expect(csvObjects((await exportCsv('?page=3&limit=5&site_id=' + lon)).body)).toHaveLength(3);
  });

  it('shows a site-limited user only their sites, and another tenant nothing of this one', async () => {
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
      const rows = csvObjects((await exportCsv('', tech)).body);
      expect(rows.map((row) => row.Site)).toEqual(['London Office', 'London Office', 'London Office']);
      expect(csvObjects((await exportCsv('?site_id=' + hq, tech)).body)).toEqual([]);
    } finally {
      await server.database.db.update(users).set({ siteAccessType: 'all' }).where(eq(users.id, techRow!.id));
    }
    const globex = csvObjects((await exportCsv('', globexAdmin)).body);
    expect(globex.map((row) => row.Hostname)).toEqual(['globex-1']);
    expect(globex[0]).not.toHaveProperty('Owner');
  });

  it('refuses bad filters with a 400 and anonymous callers with a 401', async () => {
    expect((await exportCsv('?status=sleeping')).status).toBe(400);
    expect((await exportCsv('', '')).status).toBe(401);
  });
});
