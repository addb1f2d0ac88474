import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { deploymentJobs, deploymentStepLogs, deviceDeployments, devices } from '@outpost/server/db/schema';
import type { Agent } from '@outpost/agent/agent';
import { realAgent, startProxy } from '../support/agent-faults';
import type { Proxy } from '../support/agent-faults';

// Faults: the real agent loses its connection in the middle of a step (a TCP proxy
// between it and the server is cut). It finishes the deployment offline, keeping every progress
// report and the result in its on-disk outbox; when the network returns it delivers them, and the
// server records every step and the result exactly once. The outbox is empty afterwards.

type Envelope<T> = { success: true; data: T };

describe('the agent outbox across a lost connection', () => {
  let server: TestServer;
  let proxy: Proxy;
  let agent: Agent | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-outbox-'));
  const outboxDir = path.join(dir, 'outbox');

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    proxy = await startProxy(Number(new URL(server.url).port));
  });
  afterAll(async () => {
    await agent?.stop();
    await proxy?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const outboxTypes = () =>
    fs
      .readdirSync(outboxDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => (JSON.parse(fs.readFileSync(path.join(outboxDir, f), 'utf8')) as { type: string }).type);

  it('keeps the results of a step run offline on disk and delivers them once on reconnect', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    const token = (await createEnrollmentToken(server, admin.token)).token;
    const creds = (await enroll(server, token, facts({ hostname: 'cut-off' }))).body.data;
    agent = realAgent(
      proxy.url,
      creds,
      { outbox: outboxDir, work: path.join(dir, 'work') },
      { baseMs: 100, capMs: 500 },
    );
    agent.start();
    const [device] = await eventually(async () => {
      const rows = await server.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      return rows[0]?.status === 'online' ? rows : null;
    });

    const call = <T>(method: string, url: string, body?: unknown) =>
      server.request<Envelope<T>>(method, url, { token: admin.token, body });
    const pkg = (
      await call<PackageDetail>('POST', '/api/customer/deployment-packages', {
        name: 'Offline',
        target_os: 'linux',
      })
    ).body.data;
    for (const [name, command] of [
      ['Before', 'echo before-the-cut'],
      ['Long', 'sleep 2'],
      ['After', 'echo after-the-cut'],
    ]) {
      await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
        step_name: name,
        step_type: 'CMD',
        step_details: { command },
      });
    }
    const job = (
      await call<DeploymentJob>('POST', '/api/customer/deployments', {
        package_id: pkg.id,
        device_ids: [device!.id],
        job_name: 'Offline run',
      })
    ).body.data;
    const logsOf = () =>
      server.database.db
        .select()
        .from(deploymentStepLogs)
        .innerJoin(deviceDeployments, eq(deviceDeployments.id, deploymentStepLogs.deviceDeploymentId))
        .where(eq(deviceDeployments.jobId, job.id));

    // Cut the network while step 2 runs.
    await eventually(
      async () => (await logsOf()).some((l) => l.deployment_step_logs.stepOrder === 2),
      20_000,
    );
    await proxy.cut();

    // The agent finishes offline: the result waits in its on-disk outbox, the server has nothing
    // of step 3.
    await eventually(() => Promise.resolve(outboxTypes().includes('command_result')), 20_000);
    expect(outboxTypes()).toContain('step_progress');
    expect((await logsOf()).some((l) => l.deployment_step_logs.stepOrder === 3)).toBe(false);

    await proxy.restore();
    const done = await eventually(async () => {
      const [row] = await server.database.db
        .select()
        .from(deploymentJobs)
        .where(eq(deploymentJobs.id, job.id));
      return row && row.status !== 'pending' && row.status !== 'running' ? row : null;
    }, 20_000);
    expect(done).toMatchObject({
      status: 'completed',
      totalDevices: 1,
      completedDevices: 1,
      failedDevices: 0,
    });
    const logs = (await logsOf()).map((l) => l.deployment_step_logs);
    expect(logs.map((l) => [l.stepOrder, l.attempt, l.status]).sort()).toEqual([
      [1, 1, 'completed'],
      [2, 1, 'completed'],
      [3, 1, 'completed'],
    ]);
    expect(logs.find((l) => l.stepOrder === 3)!.stdoutLog.split('after-the-cut')).toHaveLength(2);
    expect(logs.find((l) => l.stepOrder === 1)!.stdoutLog.split('before-the-cut')).toHaveLength(2);
    // Everything was acknowledged, so nothing is left on disk.
    await eventually(() => Promise.resolve(outboxTypes().length === 0));
  }, 60_000);
});
