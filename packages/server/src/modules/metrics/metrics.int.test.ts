import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { MetricsMessage } from '@outpost/contract/agent-monitoring';
import type { MetricsResponse } from '@outpost/contract/metrics';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { createEnrollmentToken, enroll, eventually, onlineAgent } from '../../../test/support/live';
import { deviceMetricMinutes, deviceMetricRollups, users, userSites } from '../../db/schema/index';
import type { DeviceRef } from '../../live/device-state';
import { createMetricsService } from './metrics.service';

// docs/product/monitoring.md#metrics: samples from an agent's socket reach the chart; the rollup
// (average and peak over 15 minutes, idempotent), retention, scope and the range's validation.

type Envelope<T> = { success: boolean; data: T; error?: string };
const silentLog = { error: () => undefined, debug: () => undefined } as unknown as FastifyBaseLogger;
const MIN = 60_000;

const sample = (
  at: number,
  cpu: number,
  memory: number,
  extra: Partial<MetricsMessage> = {},
): MetricsMessage => ({
  type: 'metrics',
  sampledAt: new Date(at).toISOString(),
  cpu,
  memory,
  volumes: [],
  ...extra,
});

describe('metrics history', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let hq: number;
  let lon: number;

  const get = <T>(path: string, token = admin) => server.request<Envelope<T>>('GET', path, { token });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
  });
  afterAll(() => server.close());

  it('answers the samples an agent sent over its socket, with its latest volumes', async () => {
    const token = await createEnrollmentToken(server, admin);
    const creds = (await enroll(server, token.token)).body.data;
    const agent = await onlineAgent(server.url, creds);
    const now = Date.now();
    agent.send(sample(now - 2 * MIN, 10, 40));
    agent.send(sample(now - MIN, 30.5, 41, { cpuMax: 90 }));
    agent.send(sample(now - MIN, 99, 99)); // the same minute again: the first one stays
    agent.send(sample(now + 60 * MIN, 50, 50)); // an hour ahead: refused
    agent.send(
      sample(now, 20, 42, {
        volumes: [
          { mount: 'C:', usedPercent: 71.25, totalBytes: 512e9, freeBytes: 147e9 },
          { mount: 'D:', usedPercent: 12 },
        ],
      }),
    );
    const metrics = await eventually(async () => {
      const res = await get<MetricsResponse>(`/api/customer/devices/${creds.device_guid}/metrics`);
      return res.body.data.points.length === 3 ? res.body.data : null;
    });
    await agent.close();
    expect(metrics.range).toBe('24h');
    expect(metrics.step_seconds).toBe(60);
    expect(metrics.points.map((p) => [p.cpu, p.cpu_max, p.memory, p.disk])).toEqual([
      [10, null, 40, null],
      [30.5, 90, 41, null],
      [20, null, 42, 71.25],
    ]);
    expect(metrics.volumes).toEqual([
      { mount: 'C:', used_percent: 71.25, total_bytes: 512e9, free_bytes: 147e9 },
      { mount: 'D:', used_percent: 12, total_bytes: null, free_bytes: null },
    ]);
    expect(metrics.latest_at).toBe(new Date(Math.floor(now / MIN) * MIN).toISOString());
  });

  it('rolls finished 15-minute buckets up (average and peak), again idempotently, and keeps the retention', async () => {
    const device = await insertDevice(server, { tenantId: acme, hostname: 'rollup-1', siteId: hq });
    const ref: DeviceRef = { id: device.id, tenantId: acme, siteId: hq, deviceGuid: device.deviceGuid };
    // a clock at 10:07 on a day after the server's (whose own job has run on its clock): the
    // bucket 09:45–10:00 is finished, 10:00–10:15 is not
    const day = Math.floor(Date.now() / (1440 * MIN)) * 1440 * MIN + 3 * 1440 * MIN;
    let clock = day + (10 * 60 + 7) * MIN;
    const service = createMetricsService({ db: server.database.db, log: silentLog, now: () => clock });
    const bucket = day + (9 * 60 + 45) * MIN;
    for (let i = 0; i < 15; i++) {
      service.record(ref, sample(bucket + i * MIN, i, 50 + i, { cpuMax: i === 7 ? 100 : i }));
    }
    service.record(ref, sample(bucket + 15 * MIN, 80, 80)); // 10:00, not finished yet
    service.record(ref, sample(clock - 25 * 60 * MIN, 1, 1)); // older than 24 hours: refused
    await service.flush();

    const rollupsOf = () =>
      server.database.db
        .select()
        .from(deviceMetricRollups)
        .where(eq(deviceMetricRollups.deviceId, device.id));
    const first = await service.runRollup();
    expect(first?.rollups).toBeGreaterThanOrEqual(1);
    const expected = {
      bucket: bucket / MIN,
      cpu: 700, // the average of 0..14, in hundredths
      cpuMax: 10000,
      memory: 5700,
      memoryMax: 6400,
      disk: null,
    };
    expect(await rollupsOf()).toEqual([{ deviceId: device.id, ...expected }]);
    // a second run in the same window changes nothing; a later one adds the next bucket
    await service.runRollup();
    expect(await rollupsOf()).toHaveLength(1);

    // the 7-day chart: the rollup, then the minutes not rolled up yet as their own bucket
    const scope = { tenantId: acme, siteAccessType: 'all', siteIds: [] } as never;
    const week = await service.history(scope, device.deviceGuid, '7d');
    expect(week.step_seconds).toBe(900);
    expect(week.points.map((p) => [p.at, p.cpu, p.cpu_max, p.memory_max])).toEqual([
      [new Date(bucket).toISOString(), 7, 100, 64],
      [new Date(bucket + 15 * MIN).toISOString(), 80, 80, 80],
    ]);

    // 25 hours later: the minutes are gone, the rollups stay; 31 days later the rollups go too
    clock += 25 * 60 * MIN;
    const later = await service.runRollup();
    expect(later?.minutesDeleted).toBeGreaterThanOrEqual(16);
    const minutesLeft = await server.database.db
      .select()
      .from(deviceMetricMinutes)
      .where(eq(deviceMetricMinutes.deviceId, device.id));
    expect(minutesLeft).toEqual([]);
    expect((await rollupsOf()).map((r) => r.bucket)).toEqual([bucket / MIN, bucket / MIN + 15]);
    clock += 31 * 24 * 60 * MIN;
    await service.runRollup();
    expect(await rollupsOf()).toEqual([]);
  });

  it('answers 404 for another site’s device to a site-limited member and for another tenant’s', async () => {
    const london = await insertDevice(server, { tenantId: acme, hostname: 'lon-metrics', siteId: lon });
    const [techRow] = await server.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, acme), eq(users.email, 'tech@acme.example')));
    await server.database.db
      .update(users)
      .set({ siteAccessType: 'specific' })
      .where(eq(users.id, techRow!.id));
    await server.database.db.insert(userSites).values({ userId: techRow!.id, siteId: hq });
    try {
      const res = await get(`/api/customer/devices/${london.deviceGuid}/metrics`, tech);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Device not found');
    } finally {
      await server.database.db.update(users).set({ siteAccessType: 'all' }).where(eq(users.id, techRow!.id));
    }
    expect((await get(`/api/customer/devices/${london.deviceGuid}/metrics`, tech)).status).toBe(200);
    expect((await get(`/api/customer/devices/${london.id}/metrics`, globexAdmin)).status).toBe(404);
    expect((await get(`/api/customer/devices/not-a-device/metrics`)).status).toBe(404);
  });

  it('refuses an unknown range with the contract’s message', async () => {
    const device = await insertDevice(server, { tenantId: acme, hostname: 'range-1', siteId: hq });
    const res = await get(`/api/customer/devices/${device.id}/metrics?range=1y`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('Range must be 24h, 7d or 30d');
    const empty = await get<MetricsResponse>(`/api/customer/devices/${device.id}/metrics?range=30d`);
    expect(empty.body.data).toEqual({
      range: '30d',
      step_seconds: 900,
      points: [],
      volumes: [],
      latest_at: null,
    });
  });
});
