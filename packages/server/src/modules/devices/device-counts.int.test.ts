import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DashboardStats, DeviceListResponse } from '@outpost/contract/devices';
import { startFleet } from '@outpost/agent/sim/fleet';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deviceCounts, devices, sites, tenants, userSites, users } from '../../db/schema/index';
import { hashSecret } from '../agents/agent-secrets';
import { compactDeviceCounts, listDevices } from './devices-list.queries';
import { createEnrollmentToken, eventually } from '../../../test/support/live';

// The per-tenant device counters (device_counts, kept by triggers on devices, migration 0007)
// must always equal a count(*) of the rows, whatever writes them; the device list's totals and
// the dashboard's tiles read them. And a page through the covering index equals the same page
// read with a plain ORDER BY … OFFSET.

type Envelope<T> = { success: boolean; data: T; error?: string };

describe('device counters and pages', () => {
  let server: TestServer;
  let admin: string;
  let acme: number;
  let siteIds: number[];

  const db = () => server.database.db;
  const get = <T>(path: string, token = admin) => server.request<Envelope<T>>('GET', path, { token });

  /** The counters (the sum of each key's deltas, without zero sums) against a count(*) of the rows. */
  async function expectCountersExact() {
    const key = (r: { tenantId: number; siteId: number; status: string; osType: string; n: number }) =>
      `${r.tenantId}/${r.siteId}/${r.status}/${r.osType}=${r.n}`;
    const counted = await db()
      .select({
        tenantId: devices.tenantId,
        siteId: sql<number>`coalesce(${devices.siteId}, 0)`,
        status: devices.status,
        osType: sql<string>`coalesce(${devices.osType}, '')`,
        n: sql<number>`count(*)::int`,
      })
      .from(devices)
      .groupBy(sql`1, 2, 3, 4`);
    const kept = await db()
      .select({
        tenantId: deviceCounts.tenantId,
        siteId: deviceCounts.siteId,
        status: deviceCounts.status,
        osType: deviceCounts.osType,
        n: sql<number>`sum(${deviceCounts.n})::int`,
      })
      .from(deviceCounts)
      .groupBy(sql`1, 2, 3, 4`)
      .having(sql`sum(${deviceCounts.n}) <> 0`);
    expect(kept.map(key).sort()).toEqual(counted.map(key).sort());
  }

  async function insertDevices(rows: Partial<typeof devices.$inferInsert>[]) {
    return db()
      .insert(devices)
      .values(
        rows.map((r) => ({
          tenantId: acme,
          deviceGuid: crypto.randomUUID(),
          secretHash: hashSecret(crypto.randomBytes(16).toString('hex')),
          status: 'offline' as const,
          osType: 'windows',
          ...r,
        })),
      )
      .returning({ id: devices.id });
  }

  beforeAll(async () => {
    server = await startTestServer({
      env: { AGENT_HEARTBEAT_INTERVAL_MS: '200', AGENT_PRESENCE_GRACE_MS: '300' },
    });
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    siteIds = demo.siteIds;
    admin = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('equal count(*) after inserts, status, site, OS and tenant changes, and deletes', async () => {
    await expectCountersExact();
    const [hq, lon] = siteIds as [number, number];
    // one statement, many rows, several keys (and no site, no OS type)
    const inserted = await insertDevices(
      Array.from({ length: 40 }, (_, i) => ({
        hostname: `CNT-${String(i).padStart(3, '0')}`,
        status: (['online', 'loggedin', 'offline', 'error'] as const)[i % 4],
        siteId: i % 3 === 0 ? null : i % 3 === 1 ? hq : lon,
        osType: i % 5 === 0 ? null : i % 5 === 1 ? 'macos' : 'windows',
      })),
    );
    await expectCountersExact();
    const ids = inserted.map((r) => r.id);
    // one row's status, then many rows at once (the presence sweeper, a restart)
    await db().update(devices).set({ status: 'online' }).where(eq(devices.id, ids[2]!));
    await expectCountersExact();
    await db()
      .update(devices)
      .set({ status: 'offline' })
      .where(inArray(devices.id, ids.slice(0, 20)));
    await expectCountersExact();
    // an update that changes no key (a heartbeat) writes no delta
    const before = await db().select({ n: count() }).from(deviceCounts);
    await db().update(devices).set({ lastSeen: new Date() }).where(inArray(devices.id, ids));
    expect(await db().select({ n: count() }).from(deviceCounts)).toEqual(before);
    await expectCountersExact();
    // site and OS changes, the same statement swapping rows between keys
    await db()
      .update(devices)
      .set({ siteId: sql`case when ${devices.siteId} = ${hq} then ${lon}::int else ${hq}::int end` })
      .where(inArray(devices.id, ids));
    await db()
      .update(devices)
      .set({ osType: 'linux' })
      .where(inArray(devices.id, ids.slice(10, 15)));
    await expectCountersExact();
    // a move to another tenant and back
    const [other] = await db().insert(tenants).values({ tenantName: 'Counter Co' }).returning();
    await db()
      .update(devices)
      .set({ tenantId: other!.id, siteId: null })
      .where(inArray(devices.id, ids.slice(30)));
    await expectCountersExact();
    // deleting a site sets its devices' site to none (a foreign key action: triggers fire too)
    const [site] = await db()
      .insert(sites)
      .values({ tenantId: acme, siteName: 'Short-lived', siteCode: 'SHORT' })
      .returning();
    await db()
      .update(devices)
      .set({ siteId: site!.id })
      .where(inArray(devices.id, ids.slice(20, 25)));
    await expectCountersExact();
    await db().delete(sites).where(eq(sites.id, site!.id));
    await expectCountersExact();
    // deletes, one and many, and a tenant's deletion (cascade)
    await db().delete(devices).where(eq(devices.id, ids[0]!));
    await db()
      .delete(devices)
      .where(inArray(devices.id, ids.slice(1, 12)));
    await expectCountersExact();
    await db().delete(tenants).where(eq(tenants.id, other!.id));
    await expectCountersExact();
    // a transaction rolled back leaves them as they were
    await expect(
      db().transaction(async (tx) => {
        await tx
          .update(devices)
          .set({ status: 'error' })
          .where(inArray(devices.id, ids.slice(12, 20)));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectCountersExact();

    // compaction folds each key's deltas into one row and drops zero sums, the sums unchanged
    await compactDeviceCounts(db());
    await expectCountersExact();
    const rows = await db()
      .select({ n: count(), zero: sql<number>`count(*) filter (where ${deviceCounts.n} = 0)::int` })
      .from(deviceCounts)
      .groupBy(deviceCounts.tenantId, deviceCounts.siteId, deviceCounts.status, deviceCounts.osType);
    expect(rows.every((r) => r.n === 1 && r.zero === 0)).toBe(true);
    // and twice at once (two instances) changes no sum
    await db()
      .update(devices)
      .set({ status: 'online' })
      .where(inArray(devices.id, ids.slice(12, 20)));
    await Promise.all([compactDeviceCounts(db()), compactDeviceCounts(db())]);
    await expectCountersExact();
  });

  it('the list totals and the dashboard tiles equal a count of the rows, in every scope', async () => {
    // the rows the test above set online have no socket: the presence sweeper would mark them
    // offline between the count below and the reads; heard from "tomorrow", they stay as they are
    await db()
      .update(devices)
      .set({ lastSeen: sql`now() + interval '1 day'` })
      .where(ne(devices.status, 'offline'));
    const acmeRows = await db()
      .select({ status: devices.status, siteId: devices.siteId, osType: devices.osType })
      .from(devices)
      .where(eq(devices.tenantId, acme));
    const count = (f: (r: (typeof acmeRows)[number]) => boolean) => acmeRows.filter(f).length;
    const connected = (s: string) => s === 'online' || s === 'loggedin';
    const [hq] = siteIds as [number];
    const cases: [string, number][] = [
      ['', acmeRows.length],
      ['status=online', count((r) => connected(r.status))],
      ['status=loggedin', count((r) => r.status === 'loggedin')],
      ['status=offline', count((r) => r.status === 'offline')],
      ['os_type=macos', count((r) => r.osType === 'macos')],
      [`site_id=${hq}`, count((r) => r.siteId === hq)],
      [
        `status=offline&os_type=windows&site_id=${hq}`,
        count((r) => r.status === 'offline' && r.osType === 'windows' && r.siteId === hq),
      ],
      ['os_type=none-such', 0],
    ];
    for (const [query, total] of cases) {
      const res = await get<DeviceListResponse>(`/api/customer/devices?${query}`);
      expect(res.body.data.pagination.total, query).toBe(total);
    }
    // past the last page: no rows, the total still right
    const beyond = await get<DeviceListResponse>('/api/customer/devices?page=999&status=offline');
    expect(beyond.body.data.data).toEqual([]);
    expect(beyond.body.data.pagination.total).toBe(count((r) => r.status === 'offline'));
    const stats = await get<DashboardStats>('/api/customer/devices/stats/dashboard');
    expect(stats.body.data.deviceCounts).toEqual({
      total: acmeRows.length,
      online: count((r) => connected(r.status)),
    });

    // a user limited to one site counts that site only (no-site devices are not theirs)
    const [member] = await db()
      .insert(users)
      .values({ tenantId: acme, email: 'counted@acme.example', name: 'Counted', siteAccessType: 'specific' })
      .returning();
    await db().insert(userSites).values({ userId: member!.id, siteId: hq });
    const limited = (await server.devSignIn('counted@acme.example')).token;
    const mine = await get<DeviceListResponse>('/api/customer/devices?status=offline', limited);
    expect(mine.body.data.pagination.total).toBe(count((r) => r.siteId === hq && r.status === 'offline'));
    const tiles = await get<DashboardStats>('/api/customer/devices/stats/dashboard', limited);
    expect(tiles.body.data.deviceCounts).toEqual({
      total: count((r) => r.siteId === hq),
      online: count((r) => r.siteId === hq && connected(r.status)),
    });
    const other = await get<DeviceListResponse>(`/api/customer/devices?site_id=${siteIds[1]}`, limited);
    expect(other.body.data.pagination.total).toBe(0);
  });

  it('every page equals the same page read with ORDER BY … OFFSET', async () => {
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    // hostnames that tie once lower-cased, and devices without a hostname (sorted last)
    await insertDevices([
      { hostname: 'tie-host' },
      { hostname: 'TIE-HOST' },
      { hostname: 'Tie-Host', status: 'online' },
      { hostname: null },
      { hostname: null, status: 'online' },
    ]);
    for (const filter of ['', 'status=offline', `site_id=${siteIds[0]}`, 'search=tie']) {
      const where = and(
        eq(devices.tenantId, acme),
        filter === 'status=offline' ? eq(devices.status, 'offline') : undefined,
        filter.startsWith('site_id') ? eq(devices.siteId, siteIds[0]!) : undefined,
        filter === 'search=tie' ? sql`lower(${devices.hostname}) like '%tie%'` : undefined,
      );
      const expected = await db()
        .select({ id: devices.id })
        .from(devices)
        .where(where)
        .orderBy(sql`lower(${devices.hostname}) asc nulls last`, asc(devices.id));
      const seen: number[] = [];
      for (let page = 1; ; page++) {
        const res = await get<DeviceListResponse>(`/api/customer/devices?limit=7&page=${page}&${filter}`);
        expect(res.body.data.pagination.total).toBe(expected.length);
        seen.push(...res.body.data.data.map((d) => d.id));
        if (page >= res.body.data.pagination.totalPages) {
          break;
        }
      }
      expect(seen, filter).toEqual(expected.map((r) => r.id));
      // the same pages with every page of the second half read backwards from the end (the
      // server does so from 1,000 rows in), the last one short
      const filters = {
        limit: 7,
        status: filter === 'status=offline' ? ('offline' as const) : undefined,
        site_id: filter.startsWith('site_id') ? siteIds[0] : undefined,
        search: filter === 'search=tie' ? 'tie' : undefined,
        os_type: undefined,
      };
      const pages = Math.ceil(expected.length / 7);
      const backwards: number[] = [];
      for (let page = 1; page <= pages + 1; page++) {
        const { rows, total } = await listDevices(db(), scope, { ...filters, page }, { backwardFromRows: 0 });
        expect(total).toBe(expected.length);
        backwards.push(...rows.map((d) => d.id));
      }
      expect(backwards, filter).toEqual(expected.map((r) => r.id));
      // and with a known total and any distance walkable: a search's pages walk the list's index
      // (ListShape.searchForm 'walk'), the same rows in the same order
      const walked: number[] = [];
      for (let page = 1; page <= pages + 1; page++) {
        const { rows, total } = await listDevices(
          db(),
          scope,
          { ...filters, page },
          { walkedSearchEntries: Infinity, searchTotal: expected.length },
        );
        expect(total).toBe(expected.length);
        walked.push(...rows.map((d) => d.id));
      }
      expect(walked, filter).toEqual(expected.map((r) => r.id));
    }
  });

  it("reuses a search's total while its pages agree with it, and counts again when one does not", async () => {
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    await insertDevices([{ hostname: 'reuse-a' }, { hostname: 'reuse-b' }, { hostname: 'reuse-c' }]);
    const filters = { limit: 2, search: 'reuse-', status: undefined, os_type: undefined, site_id: undefined };
    // [the page's total, whether it was counted]
    const list = (page: number, searchTotal?: number) =>
      listDevices(db(), scope, { ...filters, page }, { searchTotal }).then((r) => [
        r.total,
        r.isSearchCounted === true,
      ]);

    // agreeing pages: a full one within the total, the short last one ending at it
    expect(await list(1, 3)).toEqual([3, false]);
    expect(await list(2, 3)).toEqual([3, false]);
    // a total that is off (devices removed, or added, since it was counted) is counted again
    expect(await list(2, 5)).toEqual([3, true]);
    expect(await list(1, 1)).toEqual([3, true]);
    expect(await list(1)).toEqual([3, true]);

    // through the API: the total counted by the first search is reused by the next page request
    // until a page disagrees with it
    const page = (n: number) =>
      get<DeviceListResponse>(`/api/customer/devices?search=reuse-&limit=2&page=${n}`).then(
        (r) => r.body.data.pagination.total,
      );
    expect(await page(1)).toBe(3);
    await insertDevices([{ hostname: 'reuse-d' }]);
    expect(await page(1)).toBe(3);
    expect(await page(2)).toBe(4);
  });

  it('equal count(*) through the agent path: enrolment, online, offline', async () => {
    const { token } = await createEnrollmentToken(server.request.bind(server), admin);
    const fleet = await startFleet({
      server: server.url,
      tokens: [token],
      devices: 3,
      seed: 13,
      tickMs: 3_600_000,
    });
    try {
      await eventually(async () => {
        const rows = await db()
          .select({ id: devices.id })
          .from(devices)
          .where(
            inArray(
              devices.deviceGuid,
              fleet.agents.map((a) => a.deviceGuid),
            ),
          );
        const online = await db()
          .select({ id: devices.id })
          .from(devices)
          .where(
            and(
              inArray(
                devices.deviceGuid,
                fleet.agents.map((a) => a.deviceGuid),
              ),
              inArray(devices.status, ['online', 'loggedin']),
            ),
          );
        return rows.length === 3 && online.length === 3;
      });
      await expectCountersExact();
    } finally {
      await fleet.stop();
    }
    await eventually(async () => {
      const still = await db()
        .select({ id: devices.id })
        .from(devices)
        .where(
          and(
            eq(devices.tenantId, acme),
            inArray(
              devices.deviceGuid,
              fleet.agents.map((a) => a.deviceGuid),
            ),
            inArray(devices.status, ['online', 'loggedin']),
          ),
        );
      return still.length === 0;
    });
    await expectCountersExact();
  });
});
