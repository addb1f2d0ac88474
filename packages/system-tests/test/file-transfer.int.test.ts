import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AgentRemoteMessage } from '@outpost/contract/agent-protocol';
import type { FileTransfer, FsListing } from '@outpost/contract/file-transfers';
import { remoteMessages } from '@outpost/contract/remote-access';
import { devices } from '@outpost/server/db/schema';
import { createEnrollmentToken, eventually, startTestServer } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { loadAgentConfig } from '@outpost/agent/config';
import { REFUSED_FILES } from '@outpost/agent/remote/remote-access';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const MB = 1024 * 1024;
type Envelope<T> = { success: boolean; data: T; error?: string };

// File transfer with the real agent on this machine (docs/product/remote-access.md#file-transfer):
// `outpost-agent run` as its own process, wired as main.ts wires it, against a real server. It
// lists a temporary folder, downloads and uploads files (verified by sha256 on both ends), moves
// 200 MB each way while the server's and the agent's memory stay far below the file's size, and
// refuses what the organisation turned off. Nothing outside its temporary folder is touched.
describe('file transfer with the real agent', () => {
  let server: TestServer;
  let child: ChildProcess | null = null;
  let admin = '';
  let deviceId = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-files-'));
  const configFile = path.join(dir, 'agent.json');
  const tree = path.join(dir, 'tree');

  const api = <T>(method: string, url: string, body?: unknown) =>
    server.request<Envelope<T>>(method, url, { token: admin, body });
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
  const shaOfFile = async (file: string) => {
    const hash = crypto.createHash('sha256');
    await pipeline(fs.createReadStream(file), hash);
    return hash.digest('hex');
  };
  const settle = (id: string, statuses: FileTransfer['status'][]) =>
    eventually(async () => {
      const t = (await api<FileTransfer>('GET', `/api/customer/file-transfers/${id}`)).body.data;
      return statuses.includes(t.status) ? t : null;
    }, 120_000);
  const upload = (target: string, body: string | Buffer, overwrite = false) =>
    fetch(
      `${server.url}/api/customer/devices/${deviceId}/files/upload?path=${encodeURIComponent(target)}&overwrite=${overwrite}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/octet-stream' },
        body,
      },
    );

  /** The browser's side of an upload of a large file: streamed from disk with backpressure. */
  async function streamUpload(
    target: string,
    file: string,
  ): Promise<{ status: number; body: Envelope<FileTransfer> }> {
    const url = new URL(
      `/api/customer/devices/${deviceId}/files/upload?path=${encodeURIComponent(target)}`,
      server.url,
    );
    const req = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin}`,
        'content-type': 'application/octet-stream',
        'content-length': String(fs.statSync(file).size),
      },
    });
    const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
      req.once('response', resolve);
      req.once('error', reject);
    });
    await pipeline(fs.createReadStream(file), req);
    const res = await answer;
    let text = '';
    for await (const chunk of res) {
      text += String(chunk);
    }
    return { status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope<FileTransfer> };
  }

  /** The largest growth of a memory figure while `work` runs, sampled every 50 ms. */
  async function peakGrowth<T>(
    sample: () => number,
    work: () => Promise<T>,
  ): Promise<{ value: T; growth: number }> {
    const base = sample();
    let peak = base;
    const timer = setInterval(() => {
      peak = Math.max(peak, sample());
    }, 50);
    try {
      const value = await work();
      peak = Math.max(peak, sample());
      return { value, growth: peak - base };
    } finally {
      clearInterval(timer);
    }
  }
  /** the agent process's resident memory (Linux /proc) */
  const agentRss = () => {
    const status = fs.readFileSync(`/proc/${child!.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  };
  /** this process's (the server's) resident memory and JavaScript heap */
  const serverMemory = () => process.memoryUsage().rss;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    const token = await createEnrollmentToken(server.request, admin);
    const env = { ...process.env, OUTPOST_AGENT_DRY_RUN: '1' };
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
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/agent/src/main.ts', 'run', '--config', configFile],
      {
        cwd: repo,
        env,
        stdio: 'ignore',
      },
    );
    const { deviceGuid } = loadAgentConfig(configFile);
    const device = await eventually(async () => {
      const [row] = await server.database.db.select().from(devices).where(eq(devices.deviceGuid, deviceGuid));
      return row?.status === 'online' ? row : null;
    }, 60_000);
    deviceId = device.id;
    fs.mkdirSync(path.join(tree, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(tree, 'hello.txt'), 'hello from the device\n');
    // the agent is told the policy right after its welcome; a listing answers once it has it
    await eventually(async () => {
      const res = await api<FsListing>(
        'GET',
        `/api/customer/devices/${deviceId}/files?path=${encodeURIComponent(tree)}`,
      );
      return res.status === 200;
    }, 30_000);
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists a folder: folders first, sizes, modified times, absolute path', async () => {
    const res = await api<FsListing>(
      'GET',
      `/api/customer/devices/${deviceId}/files?path=${encodeURIComponent(tree + '/sub/..')}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.path).toBe(tree);
    expect(res.body.data.entries.map((e) => [e.name, e.kind])).toEqual([
      ['sub', 'dir'],
      ['hello.txt', 'file'],
    ]);
    const file = res.body.data.entries[1]!;
    expect(file.size).toBe(22);
    expect(Date.parse(file.modifiedAt!)).toBeGreaterThan(0);
    const missing = await api(
      'GET',
      `/api/customer/devices/${deviceId}/files?path=${encodeURIComponent(tree + '/nope')}`,
    );
    expect(missing.status).toBe(422);
    expect(missing.body.error).toContain('No such file or folder');
  });

  it('downloads a file and the bytes match their sha256', async () => {
    const started = await api<FileTransfer>('POST', `/api/customer/devices/${deviceId}/files/download`, {
      path: path.join(tree, 'hello.txt'),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const ready = await settle(started.body.data.id, ['ready', 'failed']);
    expect(ready.status, ready.error ?? '').toBe('ready');
    const res = await fetch(`${server.url}/api/customer/file-transfers/${ready.id}/content`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.toString()).toBe('hello from the device\n');
    expect(res.headers.get('x-checksum-sha256')).toBe(sha(bytes));
  });

  it('uploads a file onto the disk, and replaces one only when asked', async () => {
    const target = path.join(tree, 'sub', 'up.txt');
    const first = await upload(target, 'first version');
    expect(first.status).toBe(200);
    const t1 = ((await first.json()) as Envelope<FileTransfer>).data;
    expect((await settle(t1.id, ['completed', 'failed'])).status).toBe('completed');
    expect(fs.readFileSync(target, 'utf8')).toBe('first version');

    const again = ((await (await upload(target, 'second version')).json()) as Envelope<FileTransfer>).data;
    const refused = await settle(again.id, ['completed', 'failed']);
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.error).toContain('already exists');
    expect(fs.readFileSync(target, 'utf8')).toBe('first version');

    const replaced = ((await (await upload(target, 'second version', true)).json()) as Envelope<FileTransfer>)
      .data;
    expect((await settle(replaced.id, ['completed', 'failed'])).status).toBe('completed');
    expect(fs.readFileSync(target, 'utf8')).toBe('second version');
    // no temporary file is left beside it
    expect(fs.readdirSync(path.join(tree, 'sub'))).toEqual(['up.txt']);
  });

  it('moves 200 MB each way with the memory of both sides bounded far below the file', async () => {
    const big = path.join(tree, 'big.bin');
    const block = crypto.randomBytes(MB);
    const out = fs.createWriteStream(big);
    for (let i = 0; i < 200; i++) {
      block.writeUInt32LE(i, 0);
      if (!out.write(Buffer.from(block))) {
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    }
    await new Promise<void>((resolve) => out.end(() => resolve()));
    const expected = await shaOfFile(big);
    // Streams hold a few chunks at a time; Node returns the buffers of passed chunks to the
    // system lazily (a collection runs after tens of MB of them), so resident memory rises by up
    // to ~60 MB whatever the file's size (measured: 0.2–65 MB for these 200 MB). Under half of the
    // file is the bound: a side that held the file would grow by all of it.
    const limit = 96 * MB;

    // device → server → browser
    const down = await peakGrowth(agentRss, () =>
      peakGrowth(serverMemory, async () => {
        const started = await api<FileTransfer>('POST', `/api/customer/devices/${deviceId}/files/download`, {
          path: big,
        });
        const ready = await settle(started.body.data.id, ['ready', 'failed']);
        expect(ready.status, ready.error ?? '').toBe('ready');
        const res = await fetch(`${server.url}/api/customer/file-transfers/${ready.id}/content`, {
          headers: { authorization: `Bearer ${admin}` },
        });
        const hash = crypto.createHash('sha256');
        await pipeline(Readable.fromWeb(res.body! as never), hash);
        return { header: res.headers.get('x-checksum-sha256'), got: hash.digest('hex') };
      }),
    );
    expect(down.value.value).toEqual({ header: expected, got: expected });
    expect(down.value.growth, 'server memory growth (download)').toBeLessThan(limit);
    expect(down.growth, 'agent memory growth (download)').toBeLessThan(limit);

    // browser → server → device
    const target = path.join(tree, 'sub', 'big-copy.bin');
    const up = await peakGrowth(agentRss, () =>
      peakGrowth(serverMemory, async () => {
        const res = await streamUpload(target, big);
        expect(res.status).toBe(200);
        return settle(res.body.data.id, ['completed', 'failed']);
      }),
    );
    expect(up.value.value.status, up.value.value.error ?? '').toBe('completed');
    expect(await shaOfFile(target)).toBe(expected);
    expect(up.value.growth, 'server memory growth (upload)').toBeLessThan(limit);
    expect(up.growth, 'agent memory growth (upload)').toBeLessThan(limit);
    fs.rmSync(target);
    fs.rmSync(big);
  }, 300_000);

  it('the largest file: an upload beyond it is a 413, a download beyond it fails', async () => {
    expect((await api('PUT', '/api/customer/settings/remote-access', { max_file_bytes: MB })).status).toBe(
      200,
    );
    const two = Buffer.alloc(2 * MB, 1);
    fs.writeFileSync(path.join(tree, 'two.bin'), two);
    const up = await upload(path.join(tree, 'sub', 'two.bin'), two);
    expect(up.status).toBe(413);
    const started = await api<FileTransfer>('POST', `/api/customer/devices/${deviceId}/files/download`, {
      path: path.join(tree, 'two.bin'),
    });
    const failed = await settle(started.body.data.id, ['ready', 'failed']);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('larger than the largest file');
    await api('PUT', '/api/customer/settings/remote-access', { max_file_bytes: 2 * 1024 * MB });
  });

  it('turned off: the server refuses (403) and so does the agent, on its own', async () => {
    expect((await api('PUT', '/api/customer/settings/remote-access', { files_enabled: false })).status).toBe(
      200,
    );
    const refused = await api(
      'GET',
      `/api/customer/devices/${deviceId}/files?path=${encodeURIComponent(tree)}`,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(remoteMessages.filesOff);
    // a listing that reaches the agent anyway (as if the server's check were bypassed)
    const answers: AgentRemoteMessage[] = [];
    const unsubscribe = server.app.bus.subscribe('remote.reply', ({ message }) => answers.push(message));
    try {
      await eventually(async () => {
        await server.app.bus.publish('agent.remote', {
          deviceId,
          message: { type: 'fs_list', requestId: crypto.randomUUID(), path: tree },
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        return answers.find((m) => m.type === 'fs_list_result' && m.error === REFUSED_FILES);
      }, 20_000);
    } finally {
      unsubscribe();
      await api('PUT', '/api/customer/settings/remote-access', { files_enabled: true });
    }
  });
});
