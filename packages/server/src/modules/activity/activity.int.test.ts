import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import type {
  ActivityChartResponse,
  ActivityLogResponse,
  DeviceActivityOverviewResponse,
  WeeklySummaryResponse,
} from '@outpost/contract/activity';
import type { UserSession } from '@outpost/contract/agent-protocol';
import { deviceMessages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deviceActivityDaily, devices, userSites, users } from '../../db/schema/index';
import { tenantOnly } from '../../lib/scope';
import { hashSecret } from '../agents/agent-secrets';
import { allEvents } from './activity.queries';
import { recordConnected, recordDisconnected, recordSessionEvents } from './activity-recorder';
import type { ActivityDevice } from './activity-recorder';
import {
  OVERVIEW_FRESH_MS,
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
    await newDevice(acme, 'REUSE-ONE');
    clock += OVERVIEW_FRESH_MS - 1;
    expect(await reusing.overviewJson(scope)).toBe(first); // fresh: the same answer
    clock += 1;
    expect(await reusing.overviewJson(scope)).toBe(first); // older: still served, refreshed behind it
    await expect.poll(async () => names(await reusing.overviewJson(scope))).toContain('REUSE-ONE');
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
});
