import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import {
  deploymentJobs,
  deploymentWaves,
  deviceCommands,
  deviceDeployments,
  devices,
} from '../../db/schema/index';
import {
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  sleep,
  throwawayDatabase,
} from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// docs/product/rollouts.md#gates: two instances share one PostgreSQL and both schedulers look
// for ended soaks every 50 ms; the next wave is claimed atomically, so its devices get exactly
// one run command. Always on a real PostgreSQL (two instances cannot share an in-memory PGlite).

type Envelope<T> = { success: true; data: T };

describe('two instances never dispatch a wave twice', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;
  const agents: { id: number; agent: AgentSocket }[] = [];

  beforeAll(async () => {
    db = await throwawayDatabase();
    const env = { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '50' };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    await one.seedDemo();
  });
  afterAll(async () => {
    for (const a of agents) {
      await a.agent.close();
    }
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('starts the wave after the soak once, whichever instance claims it', async () => {
    const admin = await one.devSignIn('admin@acme.example');
    const token = (await createEnrollmentToken(one, admin.token)).token;
    for (let i = 0; i < 8; i++) {
      const hostname = `twin-wave-${i}`;
      const via = i % 2 === 0 ? one : two;
      const creds = (await enroll(one, token, facts({ hostname, machineId: `mid-${hostname}` }))).body.data;
      const agent = await onlineAgent(via.url, creds, { hostname });
      const [row] = await one.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      agents.push({ id: row!.id, agent });
    }
    const pkg = (
      await one.request<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
        token: admin.token,
        body: { name: 'Twin waves' },
      })
    ).body.data;
    await one.request('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
      token: admin.token,
      body: { step_name: 'echo', step_type: 'CMD', step_details: JSON.stringify({ command: 'echo twin' }) },
    });
    const job = await one.request<Envelope<DeploymentJob>>('POST', '/api/customer/deployments', {
      token: admin.token,
      body: {
        package_id: pkg.id,
        device_ids: agents.map((a) => a.id),
        job_name: 'Twin waves',
        rollout: {
          mode: 'percent',
          waves: [{ percent: 25 }, { percent: 100 }],
          gate: { min_finished_percent: 100, min_success_percent: 100, soak_minutes: 1 },
        },
      },
    });
    expect(job.status).toBe(200);
    const jobId = job.body.data.id;
    const firstWave = await eventually(async () => {
      const rows = await one.database.db
        .select()
        .from(deviceDeployments)
        .where(and(eq(deviceDeployments.jobId, jobId), isNotNull(deviceDeployments.commandId)));
      return rows.length === 2 ? rows : null;
    });
    let n = 0;
    for (const r of firstWave) {
      const agent = agents.find((a) => a.id === r.deviceId)!.agent;
      const messageId = `twin-${++n}`;
      agent.send({
        type: 'command_result',
        messageId,
        commandId: r.commandId!,
        status: 'completed',
        result: { deploymentStatus: 'completed', rebootRequired: false },
        error: null,
      });
      await agent.waitFor('ack', (a) => a.messageId === messageId);
    }
    await eventually(async () => {
      const [w] = await one.database.db
        .select()
        .from(deploymentWaves)
        .where(and(eq(deploymentWaves.jobId, jobId), eq(deploymentWaves.waveIndex, 0)));
      return w?.soakUntil ? w : null;
    });
    // the soak ends now for both instances at once
    await one.database.db
      .update(deploymentWaves)
      .set({ soakUntil: sql`now() - interval '1 second'` })
      .where(and(eq(deploymentWaves.jobId, jobId), eq(deploymentWaves.waveIndex, 0)));
    await eventually(async () => {
      const [j] = await one.database.db.select().from(deploymentJobs).where(eq(deploymentJobs.id, jobId));
      return j?.currentWave === 1 ? j : null;
    });
    await sleep(500);
    const commands = await one.database.db
      .select({ payload: deviceCommands.payload })
      .from(deviceCommands)
      .where(eq(deviceCommands.kind, 'run_deployment'));
    const perRow = new Map<number, number>();
    for (const c of commands) {
      if (c.payload.kind === 'run_deployment' && c.payload.jobId === jobId) {
        perRow.set(c.payload.deviceDeploymentId, (perRow.get(c.payload.deviceDeploymentId) ?? 0) + 1);
      }
    }
    expect(perRow.size).toBe(8);
    expect([...perRow.values()].every((count) => count === 1)).toBe(true);
  });
});
