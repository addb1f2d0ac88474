import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, createEnrollmentToken, eventually } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { loadAgentConfig } from '@outpost/agent/config';
import { NO_USER_NOTE } from '@outpost/agent/steps/message';
import { portal } from './support/portal';
import type { Portal } from './support/portal';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');

// docs/product/rollouts.md#reboot-message-and-wait-steps, with the real agent process against a
// real server. The agent runs in dry run with OUTPOST_AGENT_STEP_RECORD: its step executor only
// appends what it would do to a file (nothing here may restart this machine or message its
// users). The test plays the OS: once the agent has ordered the restart, it kills the process
// and starts a new one, which resumes the deployment at the next step.
describe('REBOOT and MESSAGE steps on the real agent', () => {
  let server: TestServer;
  let api: Portal;
  let child: ChildProcess | null = null;
  let deviceId = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-reboot-'));
  const configFile = path.join(dir, 'agent.json');
  const record = path.join(dir, 'steps.jsonl');
  const env = { ...process.env, OUTPOST_AGENT_DRY_RUN: '1', OUTPOST_AGENT_STEP_RECORD: record };

  /** Starts `outpost-agent run` as its own process (what the service manager does at boot). */
  function startAgent() {
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/agent/src/main.ts', 'run', '--config', configFile],
      {
        cwd: repo,
        env,
        stdio: 'ignore',
      },
    );
  }

  /** The restart: the OS ends the agent. */
  async function killAgent() {
    const exited = new Promise((resolve) => child!.on('exit', resolve));
    child!.kill('SIGKILL');
    await exited;
    child = null;
  }

  const recorded = () =>
    fs.existsSync(record)
      ? fs
          .readFileSync(record, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { kind: string; request?: unknown })
      : [];

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    const admin = await server.devSignIn('admin@acme.example');
    api = portal(server, admin.token, 'linux');
    const token = await createEnrollmentToken(server.request, admin.token);
    await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/agent/src/main.ts',
        'enroll',
        '--server',
        server.url,
        '--token',
        token.token,
      ],
      { cwd: repo, env: { ...env, OUTPOST_AGENT_CONFIG: configFile } },
    );
    startAgent();
    const { deviceGuid } = loadAgentConfig(configFile);
    const device = await eventually(async () => {
      const row = await api.device(deviceGuid);
      return row?.status === 'online' ? row : null;
    }, 45_000);
    deviceId = device.id;
  }, 90_000);
  afterAll(async () => {
    if (child) {
      await killAgent();
    }
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restarts for a REBOOT step and resumes after it in a new process, running the next step once', async () => {
    const marker = path.join(dir, 'runs');
    const id = await api.start(deviceId, 'Reboot in the middle', [
      { step_name: 'Before', step_type: 'CMD', step_details: { command: `echo one >> '${marker}'` } },
      { step_name: 'Restart', step_type: 'REBOOT', step_details: { delay_seconds: 5 } },
      { step_name: 'After', step_type: 'CMD', step_details: { command: `echo three >> '${marker}'` } },
    ]);
    await eventually(() => Promise.resolve(recorded().some((c) => c.kind === 'reboot')), 45_000);
    expect(recorded().filter((c) => c.kind === 'reboot')).toMatchObject([{ request: { delaySeconds: 5 } }]);
    // the server shows the device rebooting until the agent is back
    const detail = async () =>
      (
        await api.call<{ deployments: { hold?: string | null; hold_note?: string | null }[] }>(
          'GET',
          `/api/customer/deployments/${id}`,
        )
      ).body.data.deployments[0]!;
    const held = await eventually(async () => {
      const d = await detail();
      return d.hold === 'rebooting' ? d : null;
    });
    expect(held.hold_note).toContain('Rebooting');
    await killAgent();
    expect(fs.readFileSync(marker, 'utf8')).toBe('one\n');

    startAgent();
    const { job, logs } = await api.finished(id, 60_000);
    expect(job.status).toBe('completed');
    expect(fs.readFileSync(marker, 'utf8')).toBe('one\nthree\n');
    const byName = await logs();
    expect(byName('After')).toHaveLength(1);
    expect(byName('After')[0]!.status).toBe('completed');
    expect(byName('Restart')[0]!.status).toBe('completed');
    expect((await detail()).hold ?? null).toBeNull();
    // one restart, ordered once
    expect(recorded().filter((c) => c.kind === 'reboot')).toHaveLength(1);
  }, 120_000);

  it('completes a MESSAGE step with a note when no user is logged in', async () => {
    const { job, logs } = await api.deploy(deviceId, 'Tell the user', [
      { step_name: 'Notice', step_type: 'MESSAGE', step_details: { title: 'IT', message: 'Hello' } },
    ]);
    expect(job.status).toBe('completed');
    const [log] = (await logs())('Notice');
    expect(log?.note).toBe(NO_USER_NOTE);
    expect(recorded().filter((c) => c.kind === 'message')).toEqual([]);
  }, 90_000);
});
