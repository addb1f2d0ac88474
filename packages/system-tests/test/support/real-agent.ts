import { expect } from 'vitest';
import type { DeploymentJobDetail, StepLog } from '@outpost/contract/deployments';
import type { UploadedFile } from '@outpost/contract/files';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createFileOutbox } from '@outpost/agent/outbox';
import type { ProcessRunner } from '@outpost/agent/steps/process-runner';
import { createSystemBackend } from '@outpost/agent/system-backend';
import { createAgentStepsRunner } from '@outpost/agent/deployment/steps-runner';
import { portal } from './portal';

// The real agent against a real server, wired as `outpost-agent run` wires it (its work folder
// under its state folder, the executor securing it), for the integration tests of the agent's
// file handling. Packages are built and deployed over the portal's REST API (./portal.ts).

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
  const api = portal(server, token, 'linux');
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
      const device = await eventually(async () => {
        const row = await api.device(creds.device_guid);
        return row?.status === 'online' ? row : null;
      });
      deviceId = device.id;
    },
    async stopAgent() {
      await agent?.stop();
      agent = null;
      await eventually(async () => (await api.device(creds.device_guid))?.status === 'offline');
    },
    upload: api.upload,
    async deploy(steps) {
      packages += 1;
      const { job } = await api.deploy(deviceId, `File rules ${packages}`, steps, 60_000);
      return { job, logs: await api.allLogsOf(job.deployments[0]!.id) };
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
