import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deploymentJobs, deviceCommands, deviceDeployments, devices } from '../../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
  throwawayDatabase,
} from '../../../test/support/live';

// docs/product/deployments.md#scheduling and docs/product/agent-protocol.md#several-instances: two instances share one PostgreSQL; both schedulers run every 50 ms
// and claim due jobs with FOR UPDATE SKIP LOCKED. Every device deployment gets exactly one run
// command. Always on a real PostgreSQL (two instances cannot share an in-memory PGlite).

type Envelope<T> = { success: true; data: T };

describe('two instances never dispatch the same job twice', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    db = await throwawayDatabase();
    const env = { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '50' };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    await one.seedDemo();
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('dispatches 30 jobs due at the same moment once each, and refuses another tenant’s subscription', async () => {
    const admin = await one.devSignIn('admin@acme.example');
    const token = (await createEnrollmentToken(one, admin.token)).token;
    const agents = [];
    const ids: number[] = [];
    for (const hostname of ['dual-a', 'dual-b', 'dual-c']) {
      const creds = (await enroll(one, token, facts({ hostname }))).body.data;
      agents.push(await onlineAgent(one.url, creds, { hostname }));
      const [row] = await one.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      ids.push(row!.id);
    }
    const pkg = (
      await one.request<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
        token: admin.token,
        body: { name: 'Dual' },
      })
    ).body.data;
    await one.request('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
      token: admin.token,
      body: { step_name: 'echo', step_type: 'CMD', step_details: JSON.stringify({ command: 'echo dual' }) },
    });
    const at = new Date(Date.now() + 1500).toISOString();
    const jobIds: number[] = [];
    for (let i = 0; i < 30; i++) {
      const via = i % 2 === 0 ? one : two;
      const res = await via.request<Envelope<DeploymentJob>>('POST', '/api/customer/deployments', {
        token: admin.token,
        body: { package_id: pkg.id, device_ids: ids, job_name: `Dual ${i}`, scheduled_at: at },
      });
      expect(res.status).toBe(200);
      jobIds.push(res.body.data.id);
    }
    await eventually(async () => {
      const rows = await one.database.db
        .select({ dispatchedAt: deploymentJobs.dispatchedAt })
        .from(deploymentJobs)
        .where(inArray(deploymentJobs.id, jobIds));
      return rows.every((r) => r.dispatchedAt !== null);
    });
    const rows = await one.database.db
      .select({ id: deviceDeployments.id, commandId: deviceDeployments.commandId })
      .from(deviceDeployments)
      .where(inArray(deviceDeployments.jobId, jobIds));
    expect(rows).toHaveLength(90);
    expect(rows.every((r) => r.commandId !== null)).toBe(true);
    const commands = await one.database.db
      .select({ payload: deviceCommands.payload })
      .from(deviceCommands)
      .where(eq(deviceCommands.kind, 'run_deployment'));
    const perRow = new Map<number, number>();
    for (const c of commands) {
      const ddId = c.payload.kind === 'run_deployment' ? c.payload.deviceDeploymentId : 0;
      perRow.set(ddId, (perRow.get(ddId) ?? 0) + 1);
    }
    expect(perRow.size).toBe(90);
    expect([...perRow.values()].every((n) => n === 1)).toBe(true);

    // another tenant cannot follow the job live
    const globex = await two.devSignIn('admin@globex.example');
    const portal = connectPortalSocket(two.url, portalAuth(globex));
    await portal.waitFor('connection_status');
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `deployment:${jobIds[0]}` } });
    const denied = await portal.waitFor('error');
    expect(denied.payload.code).toBe('subscription_denied');
    await portal.close();
    for (const a of agents) {
      await a.close();
    }
  });
});
