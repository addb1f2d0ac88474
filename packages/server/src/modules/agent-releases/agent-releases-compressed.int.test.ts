import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { agentFileName, platformOf, releaseMessages } from '@outpost/contract/agent-releases';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';

// Compressed agent downloads (?encoding=br|xz|gz) and signed Windows releases
// (OUTPOST_AGENT_REQUIRE_SIGNATURE): docs/agent.md#download-sizes, docs/agent.md#signature.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const run = promisify(execFile);
const sha = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');
const STAND_IN = `#!/bin/sh\necho "$@" >> "$OUTPOST_TEST_RECORD"\n# ${'padding '.repeat(200)}\n`;
const WINE_PE = '/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/hostname.exe';

/** Writes an executable, its compressed forms and a sidecar listing them, as --compress does. */
function publish(dir: string, platform: string, body: Buffer, extra: Record<string, unknown> = {}) {
  const file = path.join(dir, agentFileName(platform as never));
  fs.writeFileSync(file, body, { mode: 0o755 });
  const packed = {
    br: zlib.brotliCompressSync(body),
    gz: zlib.gzipSync(body),
    xz: execFileSync('xz', ['-c'], { input: body }),
  };
  const compressed: Record<string, { sha256: string; size: number }> = {};
  for (const [encoding, data] of Object.entries(packed)) {
    fs.writeFileSync(`${file}.${encoding}`, data);
    compressed[encoding] = { sha256: sha(data), size: data.length };
  }
  const sidecar = { platform, version: '1.0.1', sha256: sha(body), size: body.length, node: '24.11.1' };
  fs.writeFileSync(`${file}.json`, JSON.stringify({ ...sidecar, compressed, ...extra }));
  return { file, sha256: sha(body), packed };
}

describe('compressed agent downloads', () => {
  let server: TestServer;
  let dir: string;
  const here = platformOf(process.platform, process.arch) ?? 'linux-x64';
  let published: ReturnType<typeof publish>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-releases-z-'));
    published = publish(dir, here, Buffer.from(STAND_IN));
    server = await startTestServer({ env: { AGENT_RELEASES_DIR: dir } });
    await server.seedDemo();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the compressed sizes and serves each form with the executable’s sha256', async () => {
    const list = await server.request<Envelope<AgentRelease[]>>('GET', '/api/agent/releases');
    expect(list.body.data[0]?.compressed).toEqual({
      br: { size: published.packed.br.length },
      xz: { size: published.packed.xz.length },
      gz: { size: published.packed.gz.length },
    });
    for (const encoding of ['br', 'xz', 'gz'] as const) {
      const res = await fetch(`${server.url}/api/agent/releases/${here}?encoding=${encoding}`);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(published.packed[encoding])).toBe(true);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('x-checksum-sha256')).toBe(published.sha256);
      expect(res.headers.get('x-compressed-sha256')).toBe(sha(body));
      expect(res.headers.get('content-disposition')).toContain(`${agentFileName(here)}.${encoding}"`);
    }
    // the uncompressed route still serves the executable (agents of earlier versions use it)
    expect(await (await fetch(`${server.url}/api/agent/releases/${here}`)).text()).toBe(STAND_IN);
  });

  it('refuses an unknown encoding (400) and one not published or not matching its sidecar (404)', async () => {
    const unknown = await server.request<Envelope<null>>('GET', `/api/agent/releases/${here}?encoding=zip`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(releaseMessages.unknownEncoding('zip'));
    const original = fs.readFileSync(`${published.file}.gz`);
    fs.writeFileSync(`${published.file}.gz`, Buffer.concat([original, Buffer.from('x')]));
    // the store re-verifies on a change of the executable or sidecar: touch the sidecar
    const sidecar = `${published.file}.json`;
    fs.writeFileSync(sidecar, fs.readFileSync(sidecar));
    try {
      const res = await server.request<Envelope<null>>('GET', `/api/agent/releases/${here}?encoding=gz`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(releaseMessages.notCompressed(here, 'gz'));
    } finally {
      fs.writeFileSync(`${published.file}.gz`, original);
      fs.writeFileSync(sidecar, fs.readFileSync(sidecar));
    }
  });

  it('offers the Brotli and xz forms in the update command', async () => {
    const admin = (await server.devSignIn('admin@acme.example')).token;
    const token = await createEnrollmentToken(server, admin);
    const osType = here.startsWith('darwin') ? 'macos' : 'linux';
    const creds = (
      await enroll(server, token.token, facts({ hostname: 'z-1', osType, agentVersion: '1.0.0' }))
    ).body.data;
    const socket = await onlineAgent(server.url, creds, { hostname: 'z-1', osType, agentVersion: '1.0.0' });
    try {
      const list = await server.request<Envelope<{ data: { id: number; device_guid: string }[] }>>(
        'GET',
        '/api/customer/devices?search=z-1',
        { token: admin },
      );
      const id = list.body.data.data.find((d) => d.device_guid === creds.device_guid)!.id;
      const res = await server.request('POST', '/api/customer/agents/update', {
        token: admin,
        body: { device_ids: [id] },
      });
      expect(res.status).toBe(200);
      const message: CommandMessage = await socket.waitFor(
        'command',
        (m) => m.command.kind === 'update_agent',
      );
      expect(message.command.kind === 'update_agent' && message.command.builds).toEqual([
        {
          platform: here,
          version: '1.0.1',
          sha256: published.sha256,
          size: STAND_IN.length,
          url: `/api/agent/releases/${here}`,
          br: { url: `/api/agent/releases/${here}?encoding=br`, size: published.packed.br.length },
          xz: { url: `/api/agent/releases/${here}?encoding=xz`, size: published.packed.xz.length },
        },
      ]);
    } finally {
      socket.ws.close();
    }
  });

  it('install.sh downloads the xz form, decompresses it and installs what matches the sha256', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-install-z-'));
    try {
      const script = path.join(work, 'install.sh');
      fs.writeFileSync(script, await (await fetch(`${server.url}/api/agent/install.sh`)).text());
      const installDir = path.join(work, 'bin');
      const record = path.join(work, 'calls.txt');
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, OUTPOST_TEST_RECORD: record };
      const { stdout } = await run('sh', [script, '--token', 'T'], {
        env: { ...env, OUTPOST_INSTALL_DIR: installDir },
      });
      expect(stdout).toContain(`/api/agent/releases/${here}?encoding=xz`);
      expect(fs.readFileSync(path.join(installDir, 'outpost-agent'), 'utf8')).toBe(STAND_IN);
      expect(fs.readdirSync(installDir)).toEqual(['outpost-agent']);
      expect(fs.readFileSync(record, 'utf8')).toContain(`install --server ${server.url} --token T`);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('OUTPOST_AGENT_REQUIRE_SIGNATURE', () => {
  it('makes the server refuse to publish an unsigned Windows release (release-store.test.ts: the rest)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-releases-sig-'));
    publish(dir, 'win-x64', fs.readFileSync(WINE_PE));
    publish(dir, 'linux-x64', Buffer.from(STAND_IN));
    const server = await startTestServer({
      env: { AGENT_RELEASES_DIR: dir, OUTPOST_AGENT_REQUIRE_SIGNATURE: 'true' },
    });
    try {
      const list = await server.request<Envelope<AgentRelease[]>>('GET', '/api/agent/releases');
      expect(list.body.data.map((r) => r.platform)).toEqual(['linux-x64']);
      const res = await server.request<Envelope<null>>('GET', '/api/agent/releases/win-x64');
      expect(res.status).toBe(404);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
