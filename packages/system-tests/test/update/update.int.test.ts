import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import { agentFileName, platformOf, releaseMessages } from '@outpost/contract/agent-releases';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { deviceCommands, devices } from '@outpost/server/db/schema';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent, DeviceBackend } from '@outpost/agent/agent';
import { createMemoryOutbox } from '@outpost/agent/outbox';
import { createUpdater, selfTestVersion } from '@outpost/agent/update/updater';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const run = promisify(execFile);

// The update protocol end to end, in-process: a test server publishes a stand-in executable, the
// agent (with the real updater, its executable a shell script in a temp dir) takes the
// update_agent command, verifies, self-tests and swaps, and "exits"; the test plays the service
// manager, asking the installed executable which version it is (--self-test) and starting the
// agent as that version. The packaged build (two real single executables) is tested separately.

const stand_in = (version: string) => `#!/bin/sh\necho "outpost-agent ${version}"\n`;

describe('agent update through the server, with a stand-in executable', () => {
  const here = platformOf(process.platform, process.arch) ?? 'linux-x64';
  const osType = here.startsWith('darwin') ? 'macos' : 'linux';
  let server: TestServer;
  let admin: string;
  let releases: string;
  let deviceDir: string;
  let exe: string;
  let creds: { device_guid: string; agent_secret: string };
  let deviceId: number;
  let agent: Agent | null = null;
  const starts: { version: string; exitCode: number | null }[] = [];
  /** the server a given version connects to (a "broken" version gets an address nobody answers) */
  const serverFor = new Map<string, string>();

  function publish(version: string) {
    const body = stand_in(version);
    const file = path.join(releases, agentFileName(here));
    fs.writeFileSync(file, body, { mode: 0o755 });
    const sidecar = {
      platform: here,
      version,
      sha256: crypto.createHash('sha256').update(body).digest('hex'),
      size: Buffer.byteLength(body),
      node: process.version,
    };
    fs.writeFileSync(`${file}.json`, JSON.stringify(sidecar));
  }

  /** The service manager: start whatever executable is installed now. */
  async function startInstalled(): Promise<void> {
    const { stdout } = await run(exe, ['--self-test']);
    const version = selfTestVersion(stdout)!;
    const start = { version, exitCode: null as number | null };
    starts.push(start);
    const restartWith = (code: number) => {
      start.exitCode = code;
      const stopping = agent;
      agent = null;
      void stopping?.stop().then(() => startInstalled());
    };
    const updater = createUpdater({
      exePath: exe,
      isPackaged: true,
      version,
      stateDir: deviceDir,
      server: server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      confirmTimeoutMs: 1500,
      io: { exit: restartWith },
    });
    const startup = await updater.beforeStart();
    if (startup.action === 'exit') {
      restartWith(startup.code);
      return;
    }
    const backend: DeviceBackend = {
      hello: () =>
        Promise.resolve({
          agentVersion: version,
          hostname: 'upd-host',
          osType,
          osVersion: 'Test OS',
          sessions: [],
        }),
      inventory: () => Promise.resolve({}),
    };
    agent = createAgent({
      server: serverFor.get(version) ?? server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      outbox: createMemoryOutbox(),
      backend,
      executor: new RecordingExecutor(),
      deployments: () => Promise.reject(new Error('no deployments here')),
      backoff: { baseMs: 50, capMs: 200 },
      selfUpdate: {
        pendingCommandId: () => updater.pendingCommandId(),
        settle: () => updater.settle(),
        apply: (id, c) => updater.apply(id, c),
        restart: () => restartWith(75),
      },
    });
    agent.start();
  }

  const deviceVersion = async () =>
    (await server.database.db.select().from(devices).where(eq(devices.id, deviceId)))[0]?.agentVersion;
  const commandRow = async (id: string) =>
    (await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, id)))[0];
  const update = () =>
    server.request<Envelope<UpdateAgentsResponse>>('POST', '/api/customer/agents/update', {
      token: admin,
      body: { device_ids: [deviceId] },
    });

  beforeAll(async () => {
    releases = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-rel-'));
    deviceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-dev-'));
    exe = path.join(deviceDir, 'outpost-agent');
    fs.writeFileSync(exe, stand_in('1.0.0'), { mode: 0o755 });
    server = await startTestServer({ env: { AGENT_RELEASES_DIR: releases } });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    const token = await createEnrollmentToken(server, admin);
    creds = (
      await enroll(server, token.token, facts({ hostname: 'upd-host', osType, agentVersion: '1.0.0' }))
    ).body.data;
    deviceId = (
      await server.database.db.select().from(devices).where(eq(devices.deviceGuid, creds.device_guid))
    )[0]!.id;
    await startInstalled();
    await eventually(
      async () => (await deviceVersion()) === '1.0.0' && agent?.connection.state === 'connected',
    );
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    fs.rmSync(releases, { recursive: true, force: true });
    fs.rmSync(deviceDir, { recursive: true, force: true });
  });

  it('updates 1.0.0 to the published 1.0.1: the device comes back reporting 1.0.1', async () => {
    publish('1.0.1');
    const res = await update();
    expect(res.status).toBe(200);
    const commandId = res.body.data.updates[0]!.command_id;
    const done = await eventually(async () => {
      const row = await commandRow(commandId);
      return row?.status === 'completed' ? row : null;
    });
    expect(done.result).toEqual({ version: '1.0.1', previousVersion: '1.0.0', startAttempts: 1 });
    expect(await deviceVersion()).toBe('1.0.1');
    expect(fs.readFileSync(exe, 'utf8')).toBe(stand_in('1.0.1'));
    expect(fs.readdirSync(deviceDir).sort()).toEqual(['outpost-agent']);
    expect(starts.map((s) => [s.version, s.exitCode])).toEqual([
      ['1.0.0', 75],
      ['1.0.1', null],
    ]);
  });

  it('rolls back a version that never reaches the server; the previous one reports the failure', async () => {
    serverFor.set('1.0.2', 'http://127.0.0.1:9'); // nothing listens there: 1.0.2 cannot connect
    publish('1.0.2');
    const res = await update();
    expect(res.status).toBe(200);
    const commandId = res.body.data.updates[0]!.command_id;
    const done = await eventually(async () => {
      const row = await commandRow(commandId);
      return row?.status === 'failed' ? row : null;
    }, 20_000);
    expect(done.error).toBe(
      'The new version 1.0.2 was not welcomed by the server within 2 s; rolled back to 1.0.1',
    );
    expect(fs.readFileSync(exe, 'utf8')).toBe(stand_in('1.0.1'));
    await eventually(() => Promise.resolve(agent?.connection.state === 'connected'));
    expect(await deviceVersion()).toBe('1.0.1');
    expect(starts.slice(1).map((s) => [s.version, s.exitCode])).toEqual([
      ['1.0.1', 75],
      ['1.0.2', 76],
      ['1.0.1', null],
    ]);
  }, 30_000);

  it('an agent run from source refuses the command with the reason', async () => {
    publish('1.0.3');
    await agent?.stop();
    const backend: DeviceBackend = {
      hello: () =>
        Promise.resolve({
          agentVersion: '1.0.1',
          hostname: 'upd-host',
          osType,
          osVersion: 'Test OS',
          sessions: [],
        }),
      inventory: () => Promise.resolve({}),
    };
    agent = createAgent({
      server: server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      outbox: createMemoryOutbox(),
      backend,
      executor: new RecordingExecutor(),
      deployments: () => Promise.reject(new Error('no deployments here')),
    });
    agent.start();
    await eventually(() => Promise.resolve(agent?.connection.state === 'connected'));
    const res = await update();
    const commandId = res.body.data.updates[0]!.command_id;
    const done = await eventually(async () => {
      const row = await commandRow(commandId);
      return row?.status === 'failed' ? row : null;
    });
    expect(done.error).toBe(releaseMessages.needsPackagedAgent);
  });
});
