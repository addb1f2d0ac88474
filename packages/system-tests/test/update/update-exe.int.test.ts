import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import { startTestServer, createEnrollmentToken, eventually } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { deviceCommands, devices } from '@outpost/server/db/schema';
import { loadAgentConfig } from '@outpost/agent/config';
import { UPDATE_EXIT_CODE } from '@outpost/agent/update/updater';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const exec = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../../..');

// Self-update with two locally built single executables ("tested with two locally built
// versions"): 1.0.0 runs enrolled against a test server, 1.0.1 is published in AGENT_RELEASES_DIR,
// the administrator updates the agent through the API, and the device comes back reporting 1.0.1.
// The test plays the service manager: it starts the installed executable again whenever it exits.
// Dry run throughout (OUTPOST_AGENT_DRY_RUN): nothing on this machine is changed.
describe('self-update of the Linux single executable, 1.0.0 → 1.0.1', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-upd-exe-'));
  const oldBuild = path.join(work, 'build-1.0.0');
  const releases = path.join(work, 'releases');
  const installed = path.join(work, 'device', 'outpost-agent');
  const configFile = path.join(work, 'device', 'config', 'agent.json');
  const env = { ...process.env, OUTPOST_AGENT_DRY_RUN: '1', OUTPOST_AGENT_CONFIG: configFile };
  let server: TestServer;
  let admin: string;
  let child: ChildProcess | null = null;
  let isStopping = false;
  const exits: (number | null)[] = [];
  let output = '';

  /** the service manager: run the installed executable, and again when it exits */
  function startService() {
    const running = spawn(installed, ['run'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = running;
    running.stdout.on('data', (d: Buffer) => (output += d.toString()));
    running.stderr.on('data', (d: Buffer) => (output += d.toString()));
    running.on('exit', (code) => {
      exits.push(code);
      if (!isStopping) {
        startService();
      }
    });
  }

  const build = (version: string, out: string) =>
    exec('node', ['scripts/build-agent-exe.mjs', '--version', version, '--out', out], {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
    });

  beforeAll(async () => {
    await build('1.0.0', oldBuild);
    await build('1.0.1', releases);
    fs.mkdirSync(path.dirname(installed), { recursive: true });
    fs.copyFileSync(path.join(oldBuild, 'outpost-agent-linux-x64'), installed);
    fs.chmodSync(installed, 0o755);
    server = await startTestServer({ env: { AGENT_RELEASES_DIR: releases } });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
  }, 300_000);

  afterAll(async () => {
    isStopping = true;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await server?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('comes back reporting 1.0.1 after the update, the old executable gone', async () => {
    const token = (await createEnrollmentToken(server, admin)).token;
    await exec(installed, ['enroll', '--server', server.url, '--token', token, '--no-external-ip'], { env });
    const { deviceGuid } = loadAgentConfig(configFile);
    const device = async () =>
      (await server.database.db.select().from(devices).where(eq(devices.deviceGuid, deviceGuid)))[0];
    startService();
    const before = await eventually(async () => {
      const d = await device();
      return d?.status === 'online' && d.agentVersion === '1.0.0' ? d : null;
    }, 60_000);

    const res = await server.request<Envelope<UpdateAgentsResponse>>('POST', '/api/customer/agents/update', {
      token: admin,
      body: { device_ids: [before.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.updates).toMatchObject([{ device_id: before.id, from: '1.0.0', to: '1.0.1' }]);
    const commandId = res.body.data.updates[0]!.command_id;

    const done = await eventually(async () => {
      const [row] = await server.database.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.id, commandId));
      return row?.status === 'completed' || row?.status === 'failed' ? row : null;
    }, 120_000);
    expect(done.error, output).toBeNull();
    expect(done.result).toMatchObject({ version: '1.0.1', previousVersion: '1.0.0' });
    expect((await device())?.agentVersion).toBe('1.0.1');
    expect(exits).toEqual([UPDATE_EXIT_CODE]);
    expect((await exec(installed, ['--version'], { env })).stdout).toBe('1.0.1\n');
    expect(fs.readdirSync(path.dirname(installed)).sort()).toEqual(['config', 'outpost-agent']);
  }, 240_000);

  it('install.sh downloads the published executable, checks it and runs its install (dry run)', async () => {
    const script = path.join(work, 'install.sh');
    fs.writeFileSync(script, await (await fetch(`${server.url}/api/agent/install.sh`)).text());
    const dir = path.join(work, 'installer');
    const { stdout } = await exec('sh', [script, '--token', 'opt_not-used-in-dry-run'], {
      env: { ...env, OUTPOST_INSTALL_DIR: dir },
    });
    // the published executable, byte for byte (compared by hash: a 100 MB toEqual takes minutes)
    const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    expect(sha(path.join(dir, 'outpost-agent'))).toBe(sha(path.join(releases, 'outpost-agent-linux-x64')));
    expect(stdout).toContain('{"op":"write","path":"/etc/outpost/agent.json","mode":"600"');
    expect(stdout).toContain(
      `{"op":"copy","from":"${path.join(dir, 'outpost-agent')}","to":"/opt/outpost/outpost-agent"}`,
    );
    expect(stdout).toContain('OUTPOST_AGENT_DRY_RUN: nothing was changed');
    expect(stdout).toContain('"command":["systemctl","enable","outpost-agent.service"]');
  }, 60_000);
});
