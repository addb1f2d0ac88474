import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createStepsRunner } from '@outpost/agent/deployment/steps-runner';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend } from '@outpost/agent/system-backend';
import { portal } from './support/portal';

// docs/product/rollouts.md#step-conditions: the real agent on this machine checks a step's
// conditions against its own file system. Step 1 makes a file; step 2 runs only when it exists,
// step 3 only when it does not: the third is skipped, with the reason in its log, and the device's
// part completes. Everything happens in a temp folder.

describe('the real agent checks step conditions', () => {
  let server: TestServer;
  let agent: Agent | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-conditions-'));
  const marker = path.join(dir, 'marker.txt');

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the step whose path exists and skips the one whose path must not exist', async () => {
    const token = (await server.devSignIn('admin@acme.example')).token;
    const api = portal(server, token, 'linux');
    const enrolToken = (await createEnrollmentToken(server, token)).token;
    const creds = (await enroll(server, enrolToken, facts({ hostname: 'real-conditions' }))).body.data;
    agent = createAgent({
      server: server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      outbox: createFileOutbox(path.join(dir, 'outbox')),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor: new RecordingExecutor(),
      deployments: createStepsRunner({
        server: server.url,
        deviceGuid: creds.device_guid,
        agentSecret: creds.agent_secret,
        workDir: path.join(dir, 'work'),
      }),
    });
    agent.start();
    const device = await eventually(async () => {
      const row = await api.device(creds.device_guid);
      return row?.status === 'online' ? row : null;
    });

    const { job, logs } = await api.deploy(device.id, 'Conditions on the real agent', [
      {
        step_name: 'Make the marker',
        step_type: 'CMD',
        step_details: { command: `echo made > "${marker}"` },
      },
      {
        step_name: 'When it exists',
        step_type: 'CMD',
        step_details: { command: 'echo the-marker-is-there' },
        conditions: [{ kind: 'path', path: marker, operator: 'exists' }],
      },
      {
        step_name: 'When it does not exist',
        step_type: 'CMD',
        step_details: { command: 'echo never-printed' },
        conditions: [{ kind: 'path', path: marker, operator: 'not_exists' }],
      },
    ]);
    expect(job).toMatchObject({ status: 'completed', completed_devices: 1, failed_devices: 0 });
    expect(job.deployments[0]).toMatchObject({ status: 'completed', error_message: null });

    const of = await logs();
    expect(of('Make the marker')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0 })]);
    const second = of('When it exists');
    expect(second).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, note: null })]);
    expect(second[0]!.stdout_log).toContain('the-marker-is-there');
    expect(of('When it does not exist')).toEqual([
      expect.objectContaining({
        status: 'skipped',
        attempt: 1,
        exit_code: null,
        note: `Skipped: ${marker} exists`,
        stdout_log: '',
      }),
    ]);
  }, 90_000);
});
