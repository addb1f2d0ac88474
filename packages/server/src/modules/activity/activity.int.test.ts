import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import type {
  ActivityChartResponse,
  ActivityLogResponse,
  ActivityOverviewPage,
  DeviceActivityOverviewResponse,
  DeviceActivityRow,
  WeeklySummaryResponse,
} from '@outpost/contract/activity';
import { activityMessages, deviceLabel, utilizationBand } from '@outpost/contract/activity';
import type { UserSession } from '@outpost/contract/agent-protocol';
import { deviceMessages, inputMessages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deviceActivityDaily, devices, sites, tenants, userSites, users } from '../../db/schema/index';
import { tenantOnly } from '../../lib/scope';
import { hashSecret } from '../agents/agent-secrets';
import { allEvents } from './activity.queries';
import { recordConnected, recordDisconnected, recordSessionEvents } from './activity-recorder';
import type { ActivityDevice } from './activity-recorder';
import {
  OVERVIEW_FRESH_MS,
  OVERVIEW_FRESH_PER_COMPUTE,
  OVERVIEW_REUSE_DEVICES,
  OVERVIEW_STALE_MAX_MS,
  checkRollups,
  createActivityService,
} from './activity.service';
import { DAY_MS, HOUR_MS, utcDay } from './activity-accounting';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

const H = HOUR_MS;
const t = (iso: string) => new Date(iso);

describe('device activity: rollups in the gateway transaction, API, scope', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let globex: number;
  let hq: number;
  let lon: number;

  const get = <T>(path: string, token = admin) => server.request<Envelope<T>>('GET', path, { token });

  async function newDevice(tenantId: number, hostname: string, siteId: number | null = null) {
    const [row] = await server.database.db
      .insert(devices)
      .values({
        tenantId,
        siteId,
        hostname,
        deviceGuid: crypto.randomUUID(),
        secretHash: hashSecret(crypto.randomBytes(16).toString('hex')),
      })
      .returning({ id: devices.id, deviceGuid: devices.deviceGuid, tenantId: devices.tenantId });
    return row!;
  }

  const tx = <T>(
    fn: (tx: Parameters<Parameters<typeof server.database.db.transaction>[0]>[0]) => Promise<T>,
  ) => server.database.db.transaction(fn);
  const online = (d: ActivityDevice, at: Date, sessions: UserSession[] = []) =>
    tx((x) => recordConnected(x, d, { ipAddress: '10.0.0.9', sessions }, at));
  const offline = (d: ActivityDevice, at: Date) => tx((x) => recordDisconnected(x, d, at));
  const session = (
    d: ActivityDevice,
    type: 'login' | 'logout',
    id: string,
    user: string,
    at: Date,
    receivedAt = at,
  ) =>
    tx((x) =>
      recordSessionEvents(
        x,
        d,
        [
          {
            eventType: type,
            sessionId: id,
            userName: user,
            ipAddress: '10.0.0.9',
            timestamp: at.toISOString(),
          },
        ],
        receivedAt,
      ),
    );

  async function rollups(deviceId: number) {
    const rows = await server.database.db
      .select()
      .from(deviceActivityDaily)
      .where(eq(deviceActivityDaily.deviceId, deviceId))
      .orderBy(asc(deviceActivityDaily.day));
    return Object.fromEntries(
      rows.map((r) => [r.day, { onlineMs: r.onlineMs, loggedInMs: r.loggedInMs, sessions: r.sessionCount }]),
    );
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    globex = demo.globexTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sessions across midnight and two overlapping users: rollups per UTC day', async () => {
    const d = await newDevice(acme, 'MIDNIGHT', hq);
    await online(d, t('2026-01-05T20:00:00Z'));
    await session(d, 'login', 'a', 'ACME\\ann', t('2026-01-05T22:00:00Z'));
    await session(d, 'login', 'b', 'ACME\\bob', t('2026-01-05T23:00:00Z'));
    await session(d, 'logout', 'a', 'ACME\\ann', t('2026-01-06T01:00:00Z'));
    await session(d, 'logout', 'b', 'ACME\\bob', t('2026-01-06T02:00:00Z'));
    await offline(d, t('2026-01-06T06:00:00Z'));
    expect(await rollups(d.id)).toEqual({
      '2026-01-05': { onlineMs: 4 * H, loggedInMs: 2 * H, sessions: 2 },
      '2026-01-06': { onlineMs: 6 * H, loggedInMs: 2 * H, sessions: 0 },
    });
  });

  it('a missing logout is closed by going offline (a logout is logged), a late logout is not counted', async () => {
    const d = await newDevice(acme, 'NO-LOGOUT', hq);
    await online(d, t('2026-01-05T08:00:00Z'));
    await session(d, 'login', 's1', 'ACME\\ann', t('2026-01-05T09:00:00Z'));
    await offline(d, t('2026-01-05T12:00:00Z'));
    await session(d, 'logout', 's1', 'ACME\\ann', t('2026-01-05T12:30:00Z'));
    expect(await rollups(d.id)).toEqual({
      '2026-01-05': { onlineMs: 4 * H, loggedInMs: 3 * H, sessions: 1 },
    });
    const log = await allEvents(server.database.db, tenantOnly(acme), d.id);
    expect(log.map((e) => [e.type, e.sessionId, e.timestamp.toISOString()])).toEqual([
      ['online', null, '2026-01-05T08:00:00.000Z'],
      ['login', 's1', '2026-01-05T09:00:00.000Z'],
      ['logout', 's1', '2026-01-05T12:00:00.000Z'],
      ['offline', null, '2026-01-05T12:00:00.000Z'],
    ]);
  });

  it('a reconnect resumes the sessions the hello reports; one that is gone signs out', async () => {
    const d = await newDevice(acme, 'RESUME', hq);
    await online(d, t('2026-01-05T08:00:00Z'), [{ sessionId: 'k', userName: 'kiosk' }]);
    await session(d, 'login', 'j', 'ann', t('2026-01-05T09:00:00Z'));
    await offline(d, t('2026-01-05T10:00:00Z'));
    await online(d, t('2026-01-05T11:00:00Z'), [{ sessionId: 'k', userName: 'kiosk' }]);
    // a reconnect within the grace period (still online) whose hello no longer has k
    await online(d, t('2026-01-05T12:00:00Z'), []);
    await offline(d, t('2026-01-05T13:00:00Z'));
    expect(await rollups(d.id)).toEqual({
      '2026-01-05': { onlineMs: 4 * H, loggedInMs: 3 * H, sessions: 2 },
    });
  });

  it('utilisation per window (7, 14, 30 days) with today still open, and a device offline all along', async () => {
    const d = await newDevice(acme, 'WINDOWS', hq);
    const quiet = await newDevice(acme, 'QUIET', hq);
    const now = Date.parse('2026-02-01T12:00:00Z');
    const day = (n: number, hour: number) => new Date(now - n * DAY_MS - 12 * H + hour * H);
    let k = 0;
    const workday = async (n: number, loggedHours: number) => {
      await online(d, day(n, 8));
      await session(d, 'login', `w${k}`, 'ann', day(n, 8));
      await session(d, 'logout', `w${k++}`, 'ann', day(n, 8 + loggedHours));
      await offline(d, day(n, 18));
    };
    await workday(20, 10);
    await workday(10, 5);
    await workday(2, 2);
    await online(d, day(0, 8));
    await session(d, 'login', 'today', 'ann', day(0, 9));
    const service = createActivityService({ db: server.database.db, now: () => now });
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    const rows = (JSON.parse(await service.overviewJson(scope)) as Envelope<DeviceActivityOverviewResponse>)
      .data;
    const row = rows.find((r) => r.agent_id === d.id);
    // 7d: (2 + 3) / (10 + 4) h; 14d: (5 + 2 + 3) / (10 + 10 + 4); 30d: (10 + 5 + 2 + 3) / 34
    expect(row).toMatchObject({
      device_guid: d.deviceGuid,
      device_name: 'WINDOWS',
      site_name: 'Headquarters',
      login_sessions_today: 1,
      utilization_7d: 35.7,
      utilization_14d: 41.7,
      utilization_30d: 58.8,
    });
    expect(rows.find((r) => r.agent_id === quiet.id)).toMatchObject({
      login_sessions_today: 0,
      utilization_7d: 0,
      utilization_14d: 0,
      utilization_30d: 0,
    });
    const weekly = await service.weekly(scope, String(d.id));
    expect(weekly.map((w) => [w.activity_date, w.day_name, w.total_sessions, w.total_login_hours])).toEqual([
      ['2026-01-26', 'Monday', 0, 0],
      ['2026-01-27', 'Tuesday', 0, 0],
      ['2026-01-28', 'Wednesday', 0, 0],
      ['2026-01-29', 'Thursday', 0, 0],
      ['2026-01-30', 'Friday', 1, 2],
      ['2026-01-31', 'Saturday', 0, 0],
      ['2026-02-01', 'Sunday', 1, 3],
    ]);
    const chart = await service.chart(scope, d.deviceGuid);
    expect(
      chart.map((c) => [c.hour_slot.slice(11, 16), c.online_percentage, c.login_minutes, c.is_current]),
    ).toEqual([
      ['01:00', 0, 0, false],
      ['02:00', 0, 0, false],
      ['03:00', 0, 0, false],
      ['04:00', 0, 0, false],
      ['05:00', 0, 0, false],
      ['06:00', 0, 0, false],
      ['07:00', 0, 0, false],
      ['08:00', 100, 0, false],
      ['09:00', 100, 60, false],
      ['10:00', 100, 60, false],
      ['11:00', 100, 60, false],
      // now is 12:00 exactly: the current slot has had no time yet
      ['12:00', 0, 0, true],
    ]);
    expect(chart[8]!.sessions).toEqual([{ user: 'ann', start_offset: 0, duration: 60 }]);
  });

  it('property: rollups written event by event equal a recomputation from the stored events', async () => {
    const kinds = ['online', 'offline', 'login', 'logout', 'resend'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom(...kinds),
            session: fc.constantFrom('s1', 's2', 's3'),
            hello: fc.subarray(['s1', 's2', 's3']),
            gap: fc.integer({ min: 0, max: 14 * H }),
            skew: fc.integer({ min: -H, max: H }),
          }),
          { maxLength: 25 },
        ),
        async (stream) => {
          const d = await newDevice(acme, 'PROPERTY', hq);
          let received = Date.parse('2026-03-01T06:00:00Z');
          let last: { kind: 'login' | 'logout'; id: string; at: Date } | null = null;
          for (const s of stream) {
            received += s.gap;
            const at = new Date(received);
            if (s.kind === 'online') {
              await online(
                d,
                at,
                s.hello.map((id) => ({ sessionId: id, userName: `u-${id}` })),
              );
            } else if (s.kind === 'offline') {
              await offline(d, at);
            } else if (s.kind === 'resend') {
              // the agent sends an unacknowledged message again
              if (last) {
                await session(d, last.kind, last.id, `u-${last.id}`, last.at, at);
              }
            } else {
              last = { kind: s.kind, id: s.session, at: new Date(received + s.skew) };
              await session(d, last.kind, last.id, `u-${last.id}`, last.at, at);
            }
          }
          const { read, recomputed } = await checkRollups(server.database.db, d, received + 5 * H);
          expect(read).toEqual(recomputed);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('API: log, chart and weekly summary of a device; 400 for a bad days', async () => {
    const d = await newDevice(acme, 'API-PC', hq);
    const now = Date.now();
    await online(d, new Date(now - 3 * H));
    await session(d, 'login', 'sess-0123456789', 'ACME\\ann', new Date(now - 2 * H));
    await session(d, 'logout', 'sess-0123456789', 'ACME\\ann', new Date(now - 1 * H));

    const log = await get<ActivityLogResponse>(`/api/customer/device-activity/device/${d.id}?days=7`);
    expect(log.status).toBe(200);
    expect(log.body.data.map((e) => [e.event_type, e.user_name, e.session_id, e.ip_address])).toEqual([
      ['logout', 'ACME\\ann', 'sess-0123456789', '10.0.0.9'],
      ['login', 'ACME\\ann', 'sess-0123456789', '10.0.0.9'],
      ['online', null, null, '10.0.0.9'],
    ]);
    expect(log.body.data[0]!.event_timestamp).toBe(new Date(now - H).toISOString());
    expect((await get(`/api/customer/device-activity/device/${d.id}?days=0`)).status).toBe(400);

    const chart = await get<ActivityChartResponse>(
      `/api/customer/device-activity/device/${d.deviceGuid}/chart`,
    );
    expect(chart.status).toBe(200);
    const slots = chart.body.data;
    expect(slots).toHaveLength(12);
    expect(slots.map((s) => s.is_current)).toEqual([...(Array(11).fill(false) as boolean[]), true]);
    const hour = Date.parse(slots[11]!.hour_slot);
    expect(hour % H).toBe(0);
    expect(Date.now() - hour).toBeLessThan(H + 60_000);
    expect(slots.map((s) => Date.parse(s.hour_slot))).toEqual(
      Array.from({ length: 12 }, (_, k) => hour - (11 - k) * H),
    );
    const minutes = slots.reduce((n, s) => n + s.login_minutes, 0);
    expect(minutes).toBeGreaterThan(59.7);
    expect(minutes).toBeLessThan(60.3);
    expect(slots.flatMap((s) => s.sessions.map((x) => x.user))).toContain('ACME\\ann');

    const weekly = await get<WeeklySummaryResponse>(
      `/api/customer/device-activity/device/${d.id}/weekly-summary`,
    );
    expect(weekly.status).toBe(200);
    expect(weekly.body.data).toHaveLength(7);
    expect(weekly.body.data[6]!.activity_date).toBe(utcDay(Date.now()));
    expect(weekly.body.data.reduce((n, w) => n + w.total_sessions, 0)).toBe(1);
    expect(weekly.body.data.reduce((n, w) => n + w.total_login_hours, 0)).toBeCloseTo(1, 1);
  });

  it('overview of a large scope: reused while fresh, refreshed behind the request after, recomputed when too old; a small scope never', async () => {
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    const names = (json: string) =>
      (JSON.parse(json) as Envelope<DeviceActivityOverviewResponse>).data.map((r) => r.device_name);
    // every scope counts as large here
    const reusing = createActivityService({
      db: server.database.db,
      now: () => clock,
      overviewReuseDevices: 1,
    });
    const first = await reusing.overviewJson(scope);
    expect(JSON.parse(first)).toMatchObject({ success: true });
    const paged = (search: string) =>
      reusing.overviewPage(scope, {
        page: 1,
        limit: 50,
        search,
        utilization: null,
        sessions: null,
        sort: 'device',
        order: 'asc',
      });
    await newDevice(acme, 'REUSE-ONE');
    clock += OVERVIEW_FRESH_MS - 1;
    expect(await reusing.overviewJson(scope)).toBe(first); // fresh: the same answer
    // pages come from the same reused rows
    expect((await paged('reuse-one')).pagination.total).toBe(0);
    clock += 1;
    expect(await reusing.overviewJson(scope)).toBe(first); // older: still served, refreshed behind it
    await expect.poll(async () => names(await reusing.overviewJson(scope))).toContain('REUSE-ONE');
    expect((await paged('reuse-one')).data.map((r) => r.device_name)).toEqual(['REUSE-ONE']);
    const refreshed = await reusing.overviewJson(scope);
    await newDevice(acme, 'REUSE-TWO');
    clock += OVERVIEW_STALE_MAX_MS;
    // too old to serve: this request waits for a fresh one
    expect(names(await reusing.overviewJson(scope))).toContain('REUSE-TWO');
    expect(await reusing.overviewJson(scope)).not.toBe(refreshed);
    // another scope (a site-limited caller) is its own entry
    const limited = { tenantId: acme, siteAccessType: 'specific' as const, siteIds: [lon] };
    expect(names(await reusing.overviewJson(limited))).not.toContain('REUSE-TWO');

    // the default threshold: a scope of a few devices is computed on every request
    const fresh = createActivityService({ db: server.database.db, now: () => clock });
    expect(OVERVIEW_REUSE_DEVICES).toBeGreaterThan(100);
    await fresh.overviewJson(scope);
    await newDevice(acme, 'REUSE-THREE');
    expect(names(await fresh.overviewJson(scope))).toContain('REUSE-THREE');
  });

  it('overview that took long to compute: served as it is for that many times as long, then refreshed behind the request', async () => {
    let clock = Date.parse('2026-03-02T12:00:00Z');
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    const names = (json: string) =>
      (JSON.parse(json) as Envelope<DeviceActivityOverviewResponse>).data.map((r) => r.device_name);
    // each statement of the computation takes 5 s by this clock
    const db = server.database.db;
    const slow = new Proxy(db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === 'select') {
          clock += 5_000;
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const reusing = createActivityService({ db: slow, now: () => clock, overviewReuseDevices: 1 });
    await newDevice(acme, 'SLOW-ZERO');
    const started = clock;
    const first = await reusing.overviewJson(scope);
    const took = clock - started;
    expect(took).toBeGreaterThanOrEqual(5_000);
    const freshMs = Math.min(OVERVIEW_STALE_MAX_MS / 2, OVERVIEW_FRESH_PER_COMPUTE * took);
    expect(freshMs).toBeGreaterThan(OVERVIEW_FRESH_MS);
    await newDevice(acme, 'SLOW-ONE');
    // its age counts from the computation's start
    clock = started + freshMs - 1;
    expect(await reusing.overviewJson(scope)).toBe(first); // still fresh: no refresh started
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await reusing.overviewJson(scope)).toBe(first);
    clock += 1;
    expect(await reusing.overviewJson(scope)).toBe(first); // older: served, refreshed behind it
    await expect.poll(async () => names(await reusing.overviewJson(scope))).toContain('SLOW-ONE');
  });

  it('scope: another tenant or a site outside a limited user → 404 Device not found; overview in scope only', async () => {
    const mine = await newDevice(acme, 'SCOPE-HQ', hq);
    const london = await newDevice(acme, 'SCOPE-LON', lon);
    const foreign = await newDevice(globex, 'GLOBEX-PC', null);
    for (const path of ['', '/chart', '/weekly-summary']) {
      const res = await get(`/api/customer/device-activity/device/${mine.id}${path}`, globexAdmin);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(deviceMessages.deviceNotFound);
      expect((await get(`/api/customer/device-activity/device/${foreign.deviceGuid}${path}`)).status).toBe(
        404,
      );
      expect((await get(`/api/customer/device-activity/device/not-an-id${path}`)).status).toBe(404);
    }
    const all = await get<DeviceActivityOverviewResponse>('/api/customer/device-activity/overview');
    expect(all.status).toBe(200);
    const ids = all.body.data.map((r) => r.agent_id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, london.id]));
    expect(ids).not.toContain(foreign.id);

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
      const limited = await get<DeviceActivityOverviewResponse>(
        '/api/customer/device-activity/overview',
        tech,
      );
      expect(limited.body.data.map((r) => r.agent_id)).toEqual([london.id]);
      expect(limited.body.data[0]!.site_name).toBe('London Office');
      expect((await get(`/api/customer/device-activity/device/${mine.id}/chart`, tech)).status).toBe(404);
      expect((await get(`/api/customer/device-activity/device/${london.id}/chart`, tech)).status).toBe(200);
    } finally {
      await server.database.db.update(users).set({ siteAccessType: 'all' }).where(eq(users.id, techRow!.id));
      await server.database.db.delete(userSites).where(eq(userSites.userId, techRow!.id));
    }
  });

  describe('paged overview (docs/decisions/2026-11-26-device-activity-overview.md)', () => {
    // A tenant of its own, with history closed before now: its figures do not move between two
    // reads, so a page can be compared with the product's full list read just before.
    let pagingAdmin: string;
    let pagingTech: string;
    let north: number;
    const SIZE = 60;

    type Page = Partial<ActivityOverviewPage> & { status: number; error?: string };
    const page = async (query: string, token = pagingAdmin): Promise<Page> => {
      const res = await get<ActivityOverviewPage>(`/api/customer/device-activity/overview?${query}`, token);
      return { status: res.status, error: res.body.error, ...res.body.data };
    };
    const full = async (token = pagingAdmin) =>
      (await get<DeviceActivityOverviewResponse>('/api/customer/device-activity/overview', token)).body.data;
    const ids = (res: Page) => res.data!.map((r) => r.agent_id);
    // the web page's order before the paged call: 30-day utilisation descending, then name, then id
    const compareText = (a: string, b: string) =>
      a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
    const byDefaultOrder = (rows: DeviceActivityRow[]) =>
      [...rows].sort(
        (a, b) =>
          b.utilization_30d - a.utilization_30d ||
          compareText(deviceLabel(a), deviceLabel(b)) ||
          a.agent_id - b.agent_id,
      );

    beforeAll(async () => {
      const db = server.database.db;
      const [tenant] = await db.insert(tenants).values({ tenantName: 'Paging Co' }).returning();
      const pagingTenant = tenant!.id;
      const [n, s] = await db
        .insert(sites)
        .values([
          { tenantId: pagingTenant, siteName: 'North Yard', siteCode: 'NORTH' },
          { tenantId: pagingTenant, siteName: 'South Yard', siteCode: 'SOUTH' },
        ])
        .returning({ id: sites.id });
      north = n!.id;
      const [, techUser] = await db
        .insert(users)
        .values([
          { tenantId: pagingTenant, email: 'admin@paging.example', role: 'tenant_admin' },
          { tenantId: pagingTenant, email: 'tech@paging.example', role: 'user', siteAccessType: 'specific' },
        ])
        .returning({ id: users.id });
      await db.insert(userSites).values({ userId: techUser!.id, siteId: north });
      const now = Date.now();
      const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
      for (let i = 1; i <= SIZE; i++) {
        // odd devices in North Yard, even ones in South Yard; the last has no name
        const d = await newDevice(pagingTenant, i === SIZE ? '' : `PG-${i}`, i % 2 ? north : s!.id);
        if (i === SIZE) {
          await db.update(devices).set({ hostname: null }).where(eq(devices.id, d.id));
        }
        if (i % 3 === 0) {
          continue; // never online: 0 %
        }
        // online for 5 hours ending a minute ago, signed in for i % 11 half-hours of them
        await online(d, at(301));
        const minutes = (i % 11) * 30;
        if (minutes > 0) {
          await session(d, 'login', `p${i}`, 'PAGING\\ann', at(301));
          await session(d, 'logout', `p${i}`, 'PAGING\\ann', at(301 - Math.min(minutes, 299)));
        }
        await offline(d, at(1));
      }
      pagingAdmin = (await server.devSignIn('admin@paging.example')).token;
      pagingTech = (await server.devSignIn('tech@paging.example')).token;
    });

    it('pages in the default order (30 days, descending) with counters equal to the full list', async () => {
      const rows = await full();
      expect(rows).toHaveLength(SIZE);
      const expected = byDefaultOrder(rows).map((r) => r.agent_id);

      const first = await page('page=1');
      expect(first.status).toBe(200);
      expect(ids(first)).toEqual(expected.slice(0, 50));
      expect(first.data![0]).toEqual(rows.find((r) => r.agent_id === expected[0]));
      expect(first.pagination).toEqual({ page: 1, limit: 50, total: SIZE, totalPages: 2 });
      const second = await page('page=2');
      expect(ids(second)).toEqual(expected.slice(50));
      expect(ids(await page('page=3'))).toEqual([]);
      expect(ids(await page('page=4&limit=7'))).toEqual(expected.slice(21, 28));

      const active = rows.filter((r) => r.login_sessions_today > 0).length;
      const band = (b: string) => rows.filter((r) => utilizationBand(r.utilization_30d) === b).length;
      const mean = (k: 'utilization_7d' | 'utilization_14d' | 'utilization_30d') =>
        rows.reduce((sum, r) => sum + r[k], 0) / rows.length;
      const summary = first.summary!;
      expect(summary).toMatchObject({
        total_devices: SIZE,
        active_today: active,
        inactive_today: SIZE - active,
        total_sessions_today: rows.reduce((n, r) => n + r.login_sessions_today, 0),
        high_utilization_30d: band('high'),
        distribution: ['high', 'good', 'moderate', 'low'].map((b) => ({ band: b, count: band(b) })),
      });
      expect(band('high')).toBeGreaterThan(0);
      expect(band('low')).toBeGreaterThan(0);
      for (const k of ['utilization_7d', 'utilization_14d', 'utilization_30d'] as const) {
        expect(summary.average_utilization[k]).toBeCloseTo(mean(k), 9);
      }
      // the filters narrow the rows and the count, never the counters and cards
      const filtered = await page('utilization=high&sessions=inactive&search=zzz');
      expect(filtered.summary).toEqual(summary);
      expect(filtered.pagination).toEqual({ page: 1, limit: 50, total: 0, totalPages: 1 });
    });

    it('sorts by every column both ways; names in the order people read them', async () => {
      const names = (res: Page) => res.data!.map(deviceLabel);
      const byName = await page('sort=device&order=asc&limit=100');
      expect(names(byName)).toEqual([
        expect.stringMatching(/^Device \d+$/),
        ...Array.from({ length: SIZE - 1 }, (_, k) => `PG-${k + 1}`),
      ]);
      expect(names(await page('sort=device&order=desc&limit=3'))).toEqual(['PG-59', 'PG-58', 'PG-57']);
      const bySite = await page('sort=site&order=desc&limit=100');
      expect(bySite.data!.slice(0, 30).every((r) => r.site_name === 'South Yard')).toBe(true);
      // ties (the same site) by device name; the unnamed device is even, so in South Yard
      expect(names(bySite).slice(0, 3)).toEqual([expect.stringMatching(/^Device \d+$/), 'PG-2', 'PG-4']);
      for (const key of ['sessions', 'utilization_7d', 'utilization_14d', 'utilization_30d'] as const) {
        const column = (order: string) =>
          page(`sort=${key}&order=${order}&limit=100`).then((res) =>
            res.data!.map((r) => (key === 'sessions' ? r.login_sessions_today : r[key])),
          );
        const up = await column('asc');
        expect(up).toEqual([...up].sort((a, b) => a - b));
        const down = await column('desc');
        expect(down).toEqual([...down].sort((a, b) => b - a));
      }
    });

    it('search (name as shown or site, case-insensitive), band and sessions filters combine', async () => {
      const rows = await full();
      const expectIds = async (query: string, keep: (r: DeviceActivityRow) => boolean) => {
        const res = await page(`${query}&limit=100`);
        const expected = byDefaultOrder(rows.filter(keep)).map((r) => r.agent_id);
        expect(ids(res)).toEqual(expected);
        expect(res.pagination!.total).toBe(expected.length);
        return expected.length;
      };
      expect(await expectIds('search=SOUTH%20yard', (r) => r.site_name === 'South Yard')).toBe(30);
      expect(await expectIds('search=pg-1', (r) => /^PG-1\d?$/.test(r.device_name ?? ''))).toBe(11);
      expect(await expectIds('search=device', (r) => r.device_name === null)).toBe(1);
      expect(await expectIds('search=%20%20', () => true)).toBe(SIZE);
      for (const band of ['high', 'good', 'moderate', 'low']) {
        await expectIds(`utilization=${band}`, (r) => utilizationBand(r.utilization_30d) === band);
      }
      await expectIds('sessions=active', (r) => r.login_sessions_today > 0);
      await expectIds('sessions=inactive', (r) => r.login_sessions_today === 0);
      await expectIds(
        'search=north&utilization=low&sessions=inactive',
        (r) =>
          r.site_name === 'North Yard' &&
          utilizationBand(r.utilization_30d) === 'low' &&
          r.login_sessions_today === 0,
      );
    });

    it('scope: a site-limited user pages their sites only; other tenants see none of it', async () => {
      const mine = await page('sort=device&order=asc&limit=100', pagingTech);
      expect(mine.status).toBe(200);
      expect(mine.data!.every((r) => r.site_name === 'North Yard')).toBe(true);
      expect(mine.pagination!.total).toBe(SIZE / 2);
      expect(mine.summary!.total_devices).toBe(SIZE / 2);
      expect(ids(mine).sort((a, b) => a - b)).toEqual(
        (await full(pagingTech)).map((r) => r.agent_id).sort((a, b) => a - b),
      );
      expect((await page('search=south', pagingTech)).pagination!.total).toBe(0);

      const pagingIds = new Set((await full()).map((r) => r.agent_id));
      for (const token of [admin, globexAdmin]) {
        const other = await page('search=pg-&limit=100', token);
        expect(other.status).toBe(200);
        expect(other.data).toEqual([]);
        const everything = await page('limit=100', token);
        expect(everything.data!.some((r) => pagingIds.has(r.agent_id))).toBe(false);
      }
    });

    it('bad parameters → 400 with the contract message', async () => {
      const cases: [string, string][] = [
        ['page=0', inputMessages.pageInvalid],
        ['page=abc', inputMessages.pageInvalid],
        ['page=1&limit=0', activityMessages.limitInvalid],
        ['limit=101', activityMessages.limitInvalid],
        ['limit=2.5', activityMessages.limitInvalid],
        [
          'sort=owner',
          'sort must be one of device, site, sessions, utilization_7d, utilization_14d, utilization_30d',
        ],
        ['order=up', 'order must be one of asc, desc'],
        ['utilization=extreme', 'utilization must be one of high, good, moderate, low'],
        ['sessions=sometimes', 'sessions must be one of active, inactive'],
        [`search=${'x'.repeat(201)}`, activityMessages.searchTooLong],
      ];
      for (const [query, message] of cases) {
        const res = await page(query);
        expect(res.status, query).toBe(400);
        expect(res.error, query).toContain(message);
      }
    });
  });
});
