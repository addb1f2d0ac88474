import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentJob, DeploymentJobDetail, StepLog } from '@outpost/contract/deployments';
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
import { makeZip } from '@outpost/agent/test-support';
import { createSystemBackend } from '@outpost/agent/system-backend';
import { portal } from './support/portal';
import type { Portal } from './support/portal';

// The real agent on this machine runs a real deployment ("Tests that must exist"):
// CMD, CUSTOM_ZIP (a zip holding a script, run and cleaned up), EXE (an uploaded shell script)
// and FOLDER, then a failing step with a retry that does not stop the deployment, then a step
// that times out and is killed. Everything happens in a temp folder; only harmless POSIX
// commands run.

describe('the real agent runs a deployment', () => {
  let server: TestServer;
  let agent: Agent | null = null;
  let token: string;
  let api: Portal;
  let deviceId = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-deploy-'));
  const workDir = path.join(dir, 'work');
  const made = path.join(dir, 'made', 'inner');

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
    api = portal(server, token, 'linux');
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs CMD, CUSTOM_ZIP, EXE and FOLDER for real, logs retries, carries on, and kills a step that times out', async () => {
    const enrolToken = (await createEnrollmentToken(server, token)).token;
    const creds = (await enroll(server, enrolToken, facts({ hostname: 'real-deployer' }))).body.data;
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
        workDir,
      }),
    });
    agent.start();
    const device = await eventually(async () => {
      const row = await api.device(creds.device_guid);
      return row?.status === 'online' ? row : null;
    });
    deviceId = device.id;

    const zip = await api.upload(
      'tool.zip',
      await makeZip([
        {
          name: 'bin/run.sh',
          data: '#!/bin/sh\necho "zip ran in $(basename "$PWD")"\nexit 0\n',
          mode: 0o755,
        },
      ]),
    );
    const script = await api.upload('installer.sh', '#!/bin/sh\necho "exe ran with $1"\nexit 0\n');
    const steps = [
      { step_name: 'Say hello', step_type: 'CMD', step_details: { command: 'echo hello-from-cmd' } },
      {
        step_name: 'Run the zip',
        step_type: 'CUSTOM_ZIP',
        step_details: { zip_file: zip, main_executable: 'bin/run.sh', cleanup: true },
      },
      {
        step_name: 'Run the installer',
        step_type: 'EXE',
        step_details: { source_type: 'upload', file: script, arguments: '--quiet' },
      },
      {
        step_name: 'Make a folder',
        step_type: 'FOLDER',
        step_details: { folder_path: made, create_parents: true },
      },
      {
        step_name: 'Flaky',
        step_type: 'CMD',
        step_details: { command: 'echo trying; exit 3' },
        retry_count: 1,
        fail_deployment_on_error: false,
      },
      { step_name: 'Too slow', step_type: 'CMD', step_details: { command: 'sleep 30' }, timeout_seconds: 1 },
      { step_name: 'Never reached', step_type: 'CMD', step_details: { command: 'echo unreachable' } },
    ];
    const { job, logs } = await api.deploy(deviceId, 'Real agent run', steps, 60_000);
    expect(job).toMatchObject({ status: 'failed', failed_devices: 1, completed_devices: 0 });
    expect(job.deployments[0]!.error_message).toContain('Too slow');

    const of = await logs();
    const one = (name: string): StepLog => {
      const [l] = of(name);
      expect(l, name).toBeDefined();
      return l!;
    };
    expect(one('Say hello')).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(one('Say hello').stdout_log).toContain('hello-from-cmd');
    expect(one('Run the zip')).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(one('Run the zip').stdout_log).toContain('zip ran in extracted');
    expect(one('Run the installer')).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(one('Run the installer').stdout_log).toContain('exe ran with --quiet');
    expect(one('Make a folder').status).toBe('completed');
    expect(fs.statSync(made).isDirectory()).toBe(true);
    // the retried step: both attempts, each with its exit code; the deployment went on
    expect(of('Flaky').map((l) => [l.attempt, l.status, l.exit_code])).toEqual([
      [1, 'failed', 3],
      [2, 'failed', 3],
    ]);
    expect(of('Flaky')[0]!.stdout_log).toContain('trying');
    // the slow step was killed at its timeout, well before its 30 s
    const slow = one('Too slow');
    expect(slow.status).toBe('failed');
    expect(slow.error_message).toMatch(/Timed out after 1 second/);
    expect(slow.duration_ms).toBeLessThan(15_000);
    // nothing after a failed step that fails the deployment ran: it has no attempt, so no log
    expect(of('Never reached')).toEqual([]);
    // the zip's extraction folder is gone; the working folder stays
    const leftovers = fs.readdirSync(workDir, { recursive: true }).map(String);
    expect(leftovers.filter((f) => f.includes('run.sh'))).toEqual([]);
  }, 90_000);

  it('cancel reaches the running agent, which kills the step’s process', async () => {
    const id = await api.start(deviceId, 'Cancel the real agent', [
      { step_name: 'Wait a while', step_type: 'CMD', step_details: { command: 'sleep 47.5' } },
    ]);
    const isSleeping = () => {
      try {
        return execFileSync('pgrep', ['-f', 'sleep 47.5']).toString().trim() !== '';
      } catch {
        return false;
      }
    };
    await eventually(async () => {
      const d = (await api.call<DeploymentJobDetail>('GET', `/api/customer/deployments/${id}`)).body.data;
      return d.status === 'running' && isSleeping();
    }, 30_000);
    const res = await api.call<DeploymentJob>('POST', `/api/customer/deployments/${id}/cancel`);
    expect(res.body.data.status).toBe('cancelled');
    await eventually(() => Promise.resolve(!isSleeping()), 15_000);
    const d = (await api.call<DeploymentJobDetail>('GET', `/api/customer/deployments/${id}`)).body.data;
    expect(d.deployments[0]).toMatchObject({ status: 'cancelled' });
  }, 60_000);
});
