import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, createEnrollmentToken, eventually } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices, deviceSoftware } from '@outpost/server/db/schema';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import { createStepsRunner } from '@outpost/agent/deployment/steps-runner';
import type { Agent } from '@outpost/agent/agent';
import { loadAgentConfig } from '@outpost/agent/config';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend } from '@outpost/agent/system-backend';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');

// The real agent on this machine against a test server ("Tests that must exist"): the CLI
// enrols, then the agent reports this machine's real hostname, disks and interfaces. Device
// actions go to a RecordingExecutor: nothing here may change the machine.
describe('the real agent on this machine', () => {
  let server: TestServer;
  let agent: Agent | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-agent-'));
  const configFile = path.join(dir, 'agent.json');

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('enrols through the CLI and keeps its identity in a file only its user can read', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    const token = await createEnrollmentToken(server.request, admin.token);
    const { stdout } = await run(
      'npx',
      [
        'tsx',
        'packages/agent/src/main.ts',
        'enroll',
        '--server',
        server.url,
        '--token',
        token.token,
        '--config',
        configFile,
        '--no-external-ip',
      ],
      { cwd: repo, env: { ...process.env, OUTPOST_AGENT_DRY_RUN: '1' } },
    );
    expect(stdout).toContain('Enrolled');
    expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    const config = loadAgentConfig(configFile);
    expect(config.server).toBe(server.url);
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, config.deviceGuid));
    expect(row?.hostname).toBe(os.hostname());
  }, 60_000);

  it('connects and reports the real hostname, disks and interfaces', async () => {
    const config = loadAgentConfig(configFile);
    agent = createAgent({
      server: config.server,
      deviceGuid: config.deviceGuid,
      agentSecret: config.agentSecret,
      outbox: createFileOutbox(path.join(config.stateDir, 'outbox')),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor: new RecordingExecutor(),
      deployments: createStepsRunner({
        server: config.server,
        deviceGuid: config.deviceGuid,
        agentSecret: config.agentSecret,
      }),
    });
    agent.start();
    const row = await eventually(async () => {
      const [r] = await server.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, config.deviceGuid));
      return r?.lastInventoryUpdate && r.hardwareInfo && r.networkInfo ? r : null;
    }, 45_000);
    expect(row.status).toBe('online');
    expect(row.hostname).toBe(os.hostname());
    // disks: the root filesystem is among the storage devices, with real sizes
    const root = row.hardwareInfo!.storageDevices.find((d) => d.deviceId === '/');
    expect(root?.totalSize).toBeGreaterThan(0);
    expect(root!.freeSpace).toBeLessThanOrEqual(root!.totalSize);
    // interfaces: the same names and IPv4 addresses the OS reports
    const osIfaces = os.networkInterfaces();
    const reported = new Map(row.networkInfo!.interfaces.map((i) => [i.name, i]));
    for (const [name, addrs] of Object.entries(osIfaces)) {
      const v4 = addrs?.find((a) => a.family === 'IPv4');
      if (v4) {
        expect(reported.get(name)?.ipv4Addresses.map((a) => a.address)).toContain(v4.address);
      }
    }
    expect(row.hardwareInfo!.memoryModules.reduce((s, m) => s + m.capacity, 0)).toBeGreaterThan(0);
    // installed software from the package manager, when this machine has one
    const sw = await server.database.db
      .select()
      .from(deviceSoftware)
      .where(eq(deviceSoftware.deviceId, row.id));
    if (fs.existsSync('/usr/bin/dpkg-query')) {
      expect(sw.length).toBeGreaterThan(10);
    }
    // the outbox is empty once the server acknowledged the inventory
    await eventually(() =>
      Promise.resolve(
        fs.readdirSync(path.join(config.stateDir, 'outbox')).filter((f) => f.endsWith('.json')).length === 0,
      ),
    );
  }, 60_000);
});
