import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { alertMessages } from '@outpost/contract/alerts';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { eventually, throwawayDatabase } from '../../../test/support/live';
import { insertSite } from '../../../test/support/policies';
import { alerts, devices, monitoringPolicies } from '../../db/schema/index';

// docs/product/monitoring.md#alerts: two instances share one PostgreSQL and both sweep for
// offline devices every 50 ms; each device past its threshold gets one alert, never two, and each
// resolves once when its device is back. Always on PostgreSQL (two instances cannot share PGlite).

describe('two instances open one alert per condition', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;
  let tenantId: number;

  beforeAll(async () => {
    db = await throwawayDatabase();
    const env = { ALERT_SWEEP_INTERVAL_MS: '50' };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    tenantId = (await one.seedDemo())!.acmeTenantId;
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('20 devices offline too long: 20 alerts, then 20 resolutions', async () => {
    const site = await insertSite(one, tenantId, 'ALR', null);
    await one.database.db.insert(monitoringPolicies).values({
      tenantId,
      name: 'Offline 5 minutes',
      targetType: 'site',
      siteId: site,
      offlineAlertMinutes: 5,
    });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const d = await insertDevice(one, {
        tenantId,
        hostname: `alr-${i}`,
        siteId: site,
        lastSeen: new Date(Date.now() - 3600_000),
      });
      ids.push(d.id);
    }
    const rowsOf = () => one.database.db.select().from(alerts).where(inArray(alerts.deviceId, ids));
    await eventually(async () => ((await rowsOf()).length >= 20 ? true : null));
    // both sweeps keep running: still one alert per device
    await new Promise((r) => setTimeout(r, 500));
    const opened = await rowsOf();
    expect(opened).toHaveLength(20);
    expect(new Set(opened.map((a) => a.deviceId)).size).toBe(20);
    expect(opened.every((a) => a.state === 'open' && a.condition === 'offline')).toBe(true);

    await one.database.db
      .update(devices)
      .set({ status: 'online', lastSeen: new Date() })
      .where(inArray(devices.id, ids));
    const resolved = await eventually(async () => {
      const rows = await rowsOf();
      return rows.every((a) => a.state === 'resolved') ? rows : null;
    });
    expect(resolved).toHaveLength(20);
    expect(resolved.every((a) => a.resolveNote === alertMessages.autoResolved && a.resolvedBy === null)).toBe(
      true,
    );
    const open = await one.database.db
      .select()
      .from(alerts)
      .where(and(inArray(alerts.deviceId, ids), eq(alerts.state, 'open')));
    expect(open).toHaveLength(0);
  });
});
