import { execFile, fork, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  startTestServer,
  createEnrollmentToken,
  eventually,
  TerminalClient,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import { loadAgentConfig } from '@outpost/agent/config';

const exec = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');

// The agent as operators get it: the Linux single executable, built here with a version of its
// own, enrols against a real server and comes online reporting that version. Dry run throughout
// (OUTPOST_AGENT_DRY_RUN): device actions are recorded, and `install` only prints its plan.
describe('the agent single executable (Linux x64)', () => {
  const VERSION = '9.8.7-ci';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-exe-'));
  const exe = path.join(dir, 'outpost-agent-linux-x64');
  const configFile = path.join(dir, 'config', 'agent.json');
  const env = { ...process.env, OUTPOST_AGENT_DRY_RUN: '1', OUTPOST_AGENT_CONFIG: configFile };
  let server: TestServer;
  let token: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // node, not this test's runtime: the build runs as in CI's `npm run build:agent-exe`
    await exec('node', ['scripts/build-agent-exe.mjs', '--version', VERSION, '--out', dir], {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
    });
    server = await startTestServer();
    await server.seedDemo();
    const admin = await server.devSignIn('admin@acme.example');
    token = (await createEnrollmentToken(server.request.bind(server), admin.token)).token;
  }, 240_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is built with a sidecar describing it, and reports its version and Node 24', async () => {
    const meta = JSON.parse(fs.readFileSync(`${exe}.json`, 'utf8')) as Record<string, unknown> & {
      node: string;
    };
    expect(Object.keys(meta).sort()).toEqual(['node', 'platform', 'sha256', 'size', 'version']);
    expect(meta).toMatchObject({ platform: 'linux-x64', version: VERSION, size: fs.statSync(exe).size });
    expect(meta.node).toMatch(/^24\./);
    expect((await exec(exe, ['--version'], { env })).stdout).toBe(`${VERSION}\n`);
    const verbose = (await exec(exe, ['version', '--verbose'], { env })).stdout;
    expect(verbose).toContain(`node v${meta.node}\n`);
    expect(verbose).toContain(`executable ${exe}\n`);
  });

  it('enrols, runs as a child process, comes online with its version and stops on SIGTERM', async () => {
    const enrolled = await exec(
      exe,
      ['enroll', '--server', server.url, '--token', token, '--no-external-ip'],
      {
        env,
      },
    );
    expect(enrolled.stdout).toContain('Enrolled');
    expect(enrolled.stdout).toContain('Start with: outpost-agent-linux-x64 run');
    const { deviceGuid } = loadAgentConfig(configFile);

    const running = spawn(exe, ['run'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = running;
    let output = '';
    running.stdout.on('data', (d: Buffer) => (output += d.toString()));
    running.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const row = await eventually(async () => {
      const [r] = await server.database.db.select().from(devices).where(eq(devices.deviceGuid, deviceGuid));
      return r?.status === 'online' && r.agentVersion ? r : null;
    }, 45_000);
    expect(row.agentVersion).toBe(VERSION);
    expect(row.hostname).toBe(os.hostname());
    expect(output).toContain(`agent ${VERSION} running for device ${deviceGuid}`);
    // the inventory libraries work bundled: the root filesystem is reported with its size
    const inventoried = await eventually(async () => {
      const [r] = await server.database.db.select().from(devices).where(eq(devices.deviceGuid, deviceGuid));
      return r?.hardwareInfo && r.networkInfo ? r : null;
    }, 45_000);
    const root = inventoried.hardwareInfo!.storageDevices.find((d) => d.deviceId === '/');
    expect(root?.totalSize).toBeGreaterThan(0);

    // the remote terminal: node-pty's files, embedded, extracted owner-only and loaded from there
    const admin = await server.devSignIn('admin@acme.example');
    const term = await TerminalClient.open(server.url, row.id, admin.token, {
      shell: 'sh',
      cols: 91,
      rows: 27,
    });
    await term.until(
      () => term.frames.find((f) => f.type === 'started' || f.type === 'ended'),
      30_000,
      'started',
    );
    expect(term.ended, JSON.stringify(term.frames)).toBeUndefined();
    term.type('stty size\r');
    await term.waitForText('27 91');
    term.type('exit\r');
    expect((await term.waitForEnd()).reason).toBe('exited');
    const native = path.join(loadAgentConfig(configFile).stateDir, 'native');
    expect(fs.statSync(native).mode & 0o777).toBe(0o700);
    const [digestDir] = fs.readdirSync(native);
    const extracted = path.join(native, digestDir!, 'node_modules', '@lydell');
    expect(fs.statSync(path.join(extracted, 'node-pty-linux-x64', 'pty.node')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(extracted, 'node-pty', 'index.js')).mode & 0o777).toBe(0o600);

    const exited = new Promise<number | null>((resolve) => running.on('exit', (code) => resolve(code)));
    running.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
  }, 90_000);

  it('stops when its standard input ends (how the Windows service wrapper stops it)', async () => {
    const running = spawn(exe, ['run', '--stop-on-stdin-end'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child = running;
    let output = '';
    running.stdout.on('data', (d: Buffer) => (output += d.toString()));
    await eventually(() => Promise.resolve(output.includes('connection connected') ? true : null), 30_000);
    const exited = new Promise<number | null>((resolve) => running.on('exit', (code) => resolve(code)));
    running.stdin.end();
    expect(await exited).toBe(0);
    child = undefined;
  }, 60_000);

  it("answers node-pty's console-list fork and exits, never starting an agent", async () => {
    // what node-pty does on Windows: fork(<node-pty>/conpty_console_list_agent, [shellPid]), which
    // runs process.execPath (this executable) with the agent's flags, the script and the pid
    const script = path.join(
      dir,
      'native',
      'x',
      'node_modules',
      '@lydell',
      'node-pty',
      'conpty_console_list_agent',
    );
    const forked = fork(script, ['4242'], {
      execPath: exe,
      execArgv: ['--max-semi-space-size=1', '--optimize-for-size'],
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    forked.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    forked.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const message = new Promise<unknown>((resolve) => forked.once('message', resolve));
    const exited = new Promise<number | null>((resolve) => forked.on('exit', (code) => resolve(code)));
    // no conpty_console_list.node here: the shell alone, which node-pty then ends
    expect(await message).toEqual({ consoleProcessList: [4242] });
    expect(await exited).toBe(0);
    expect(output).toBe('');
  });

  it('install in dry run prints the systemd plan and changes nothing', async () => {
    const { stdout } = await exec(exe, ['install', '--config', configFile], { env });
    expect(stdout).toContain('OUTPOST_AGENT_DRY_RUN: nothing was changed');
    expect(stdout).toContain(`"from":"${exe}","to":"/opt/outpost/outpost-agent"`);
    expect(stdout).toContain('"command":["systemctl","enable","outpost-agent.service"]');
    expect(fs.existsSync('/etc/systemd/system/outpost-agent.service')).toBe(false);
  });
});
