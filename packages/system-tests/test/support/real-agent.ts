import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  DeploymentJob,
  DeploymentJobDetail,
  StepLog,
  StepLogsResponse,
} from '@outpost/contract/deployments';
import type { UploadedFile } from '@outpost/contract/files';
import type { PackageDetail } from '@outpost/contract/packages';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createFileOutbox } from '@outpost/agent/outbox';
import type { ProcessRunner } from '@outpost/agent/steps/process-runner';
import { createSystemBackend } from '@outpost/agent/system-backend';
import { createAgentStepsRunner } from '@outpost/agent/deployment/steps-runner';

// The real agent against a real server, wired as `outpost-agent run` wires it (its work folder
// under its state folder, the executor securing it), for the integration tests of the agent's
// file handling. Packages are built and deployed over the portal's REST API.

type Envelope<T> = { success: true; data: T };

export type StepInput = {
  step_name: string;
  step_type: string;
  step_details: Record<string, unknown>;
  retry_count?: number;
  fail_deployment_on_error?: boolean;
};

export type RealAgentRig = {
  server: TestServer;
  deviceId: number;
  executor: RecordingExecutor;
  /** starts the agent with this state folder (its work folder is `<stateDir>/work`) */
  startAgent(stateDir: string, runner?: ProcessRunner): Promise<void>;
  stopAgent(): Promise<void>;
  upload(name: string, content: Buffer | string): Promise<UploadedFile>;
  /** builds a package of these steps, deploys it to the device and waits for the job to end */
  deploy(steps: StepInput[]): Promise<{ job: DeploymentJobDetail; logs: StepLog[] }>;
  close(): Promise<void>;
};

export async function startRealAgentRig(): Promise<RealAgentRig> {
  const server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
  await server.seedDemo();
  const token = (await server.devSignIn('admin@acme.example')).token;
  const call = <T>(method: string, url: string, body?: unknown) =>
    server.request<Envelope<T>>(method, url, { token, body });
  const enrolToken = (await createEnrollmentToken(server, token)).token;
  const creds = (await enroll(server, enrolToken, facts({ hostname: 'file-rules' }))).body.data;
  const executor = new RecordingExecutor();
  let agent: Agent | null = null;
  let deviceId = 0;
  let packages = 0;

  const rig: RealAgentRig = {
    server,
    executor,
    get deviceId() {
      return deviceId;
    },
    async startAgent(stateDir, runner) {
      const config = {
        server: server.url,
        deviceGuid: creds.device_guid,
        agentSecret: creds.agent_secret,
        stateDir,
      };
      agent = createAgent({
        ...config,
        outbox: createFileOutbox(`${stateDir}-outbox`),
        backend: createSystemBackend({ externalIpUrl: null }),
        executor,
        deployments: createAgentStepsRunner(config, executor, runner ? { runner } : {}),
      });
      agent.start();
      const [device] = await eventually(async () => {
        const rows = await server.database.db
          .select()
          .from(devices)
          .where(eq(devices.deviceGuid, creds.device_guid));
        return rows[0]?.status === 'online' ? rows : null;
      });
      deviceId = device!.id;
    },
    async stopAgent() {
      await agent?.stop();
      agent = null;
      await eventually(async () => {
        const [row] = await server.database.db
          .select()
          .from(devices)
          .where(eq(devices.deviceGuid, creds.device_guid));
        return row?.status === 'offline';
      });
    },
    async upload(name, content) {
      const form = new FormData();
      form.append('file', new Blob([content]), name);
      const res = await fetch(`${server.url}/api/customer/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return ((await res.json()) as Envelope<UploadedFile>).data;
    },
    async deploy(steps) {
      packages += 1;
      const pkg = (
        await call<PackageDetail>('POST', '/api/customer/deployment-packages', {
          name: `File rules ${packages}`,
          target_os: 'linux',
        })
      ).body.data;
      for (const s of steps) {
        const res = await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
          ...s,
          step_details: JSON.stringify(s.step_details),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      const created = await call<DeploymentJob>('POST', '/api/customer/deployments', {
        package_id: pkg.id,
        device_ids: [deviceId],
        job_name: `File rules ${packages}`,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const job = await eventually(async () => {
        const d = (
          await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${created.body.data.id}`)
        ).body.data;
        return d.status === 'failed' || d.status === 'completed' ? d : null;
      }, 60_000);
      const dd = job.deployments[0]!;
      const logs = (
        await call<StepLogsResponse>('GET', `/api/customer/deployments/device-deployment/${dd.id}/logs`)
      ).body.data.logs;
      return { job, logs };
    },
    async close() {
      await agent?.stop();
      await server.close();
    },
  };
  return rig;
}

/** The one log row of a step (the first attempt). */
export function logOf(logs: StepLog[], stepName: string): StepLog {
  const row = logs.find((l) => l.step_name === stepName);
  expect(row, stepName).toBeDefined();
  return row!;
}
