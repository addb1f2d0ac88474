import { eq } from 'drizzle-orm';
import type { DeviceActivityOverviewResponse } from '@outpost/contract/activity';
import { utilizationBand } from '@outpost/contract/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { activityEvents, tenants } from '../../db/schema/index';
import { checkRollups } from '../activity/activity.service';
import { createDemo } from './demo';
import type { Demo } from './demo';
import { DEMO } from './demo.seed';

describe('the demo activity history', () => {
  let server: TestServer;
  let demo: Demo;
  beforeAll(async () => {
    server = await startTestServer({ env: { OUTPOST_DEMO_DEVICES: '10' } });
    demo = createDemo(server.config, server.database, server.app.log);
    await demo.seed();
    await demo.startFleet(server.url);
  });
  afterAll(async () => {
    await demo.stop();
    await server.close();
  });

  it('back-fills 30 days once: every band has devices, and rollups agree with the events', async () => {
    const { token } = await server.devSignIn(DEMO.adminEmail);
    const res = await server.request<{ data: DeviceActivityOverviewResponse }>(
      'GET',
      '/api/customer/device-activity/overview',
      { token },
    );
    const rows = res.body.data;
    expect(rows).toHaveLength(10);
    const bands = new Set(rows.map((r) => utilizationBand(r.utilization_30d)));
    expect([...bands].sort()).toEqual(['good', 'high', 'low', 'moderate']);

    const db = server.database.db;
    const now = Date.now();
    const [acme] = await db
      .select({ id: tenants.id })
      .from(tenants)
      .where(eq(tenants.tenantName, DEMO.tenantName));
    for (const r of rows) {
      const check = await checkRollups(db, { id: r.agent_id, tenantId: acme!.id }, Date.now());
      expect(check.firstEventAt).toBeLessThan(now - 25 * 86_400_000);
      expect(check.read).toEqual(check.recomputed);
    }

    // devices signed in since the fleet started have sessions today (the 'active' filter)
    expect(rows.some((r) => r.login_sessions_today > 0)).toBe(true);

    // a second start adds no second history
    const older = async () =>
      (await db.select({ at: activityEvents.eventTimestamp }).from(activityEvents)).filter(
        (e) => e.at.getTime() < now - 86_400_000,
      ).length;
    const before = await older();
    expect(before).toBeGreaterThan(0);
    await demo.stop();
    await demo.startFleet(server.url);
    expect(await older()).toBe(before);
  });
});
