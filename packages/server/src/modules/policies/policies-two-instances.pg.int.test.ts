import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { eventually, throwawayDatabase } from '../../../test/support/live';
import { createPackage, createPolicy, insertSite, jobsOf, testRunner } from '../../../test/support/policies';
import { policies, policyDeviceRuns } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';

// docs/product/device-sets.md#automation-policies: two instances share one PostgreSQL, both
// timers run every 50 ms, and two more passes race them; every due occurrence becomes one job and
// every joined device one run. Always on PostgreSQL (two instances cannot share PGlite).

describe('two instances never run the same policy occurrence twice', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;
  let tenantId: number;

  beforeAll(async () => {
    db = await throwawayDatabase();
    const env = { POLICY_SCHEDULER_INTERVAL_MS: '50' };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    tenantId = (await one.seedDemo())!.acmeTenantId;
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('runs 10 due occurrences and 10 joined devices once each', async () => {
    const admin = (await one.devSignIn(DEMO.adminEmail)).token;
    const site = await insertSite(one, tenantId, 'DUO', null);
    const pkg = await createPackage(one, admin, 'Duo package');
    const scheduled: number[] = [];
    const minuteAgo = new Date(Date.now() - 60_000).toISOString().slice(11, 16);
    for (let i = 0; i < 10; i++) {
      await insertDevice(one, { tenantId, hostname: `duo-${i}`, siteId: site, osType: 'windows' });
      const via = i % 2 === 0 ? one : two;
      const res = await createPolicy(via, admin, {
        name: `Duo ${i}`,
        target_type: 'site',
        site_id: site,
        package_id: pkg,
        trigger: 'schedule',
        schedule: { frequency: 'daily', time: minuteAgo },
      });
      expect(res.status).toBe(200);
      scheduled.push(res.body.data.id);
    }
    const join = (
      await createPolicy(one, admin, {
        name: 'Duo join',
        target_type: 'site',
        site_id: site,
        package_id: pkg,
        trigger: 'join',
      })
    ).body.data.id;
    // enabled an hour ago: the occurrence a minute ago is due, and every device has joined since
    await one.database.db
      .update(policies)
      .set({ activeSince: new Date(Date.now() - 3_600_000) })
      .where(inArray(policies.id, [...scheduled, join]));

    const racers = [testRunner(one), testRunner(two)];
    await Promise.all(racers.map((r) => r.pass(Date.now())));
    await eventually(async () => {
      const counts = await Promise.all(scheduled.map(async (id) => (await jobsOf(one, id)).length));
      return counts.every((n) => n >= 1);
    });
    await Promise.all(racers.map((r) => r.pass(Date.now())));
    for (const id of scheduled) {
      const jobs = await jobsOf(one, id);
      expect(jobs, `policy ${id}`).toHaveLength(1);
      expect(jobs[0]!.deviceIds).toHaveLength(10);
    }
    const joined = await jobsOf(one, join);
    expect(joined.flatMap((j) => j.deviceIds)).toHaveLength(10);
    const runs = await one.database.db
      .select()
      .from(policyDeviceRuns)
      .where(eq(policyDeviceRuns.policyId, join));
    expect(runs).toHaveLength(10);
  });
});
