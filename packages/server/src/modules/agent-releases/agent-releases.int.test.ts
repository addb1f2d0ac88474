import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { AgentRelease, UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import { agentFileName, platformOf, releaseMessages } from '@outpost/contract/agent-releases';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const run = promisify(execFile);

// A stand-in "executable": a shell script that records how it was called.
const STAND_IN = '#!/bin/sh\necho "$@" >> "$OUTPOST_TEST_RECORD"\n';

function publish(
  dir: string,
  platform: string,
  body: string,
  version: string,
  sidecar: Partial<{ sha256: string }> = {},
) {
  const file = path.join(dir, agentFileName(platform as never));
  fs.writeFileSync(file, body, { mode: 0o755 });
  const sha256 = crypto.createHash('sha256').update(body).digest('hex');
  fs.writeFileSync(
    `${file}.json`,
    JSON.stringify({
      platform,
      version,
      sha256,
      size: Buffer.byteLength(body),
      node: 'v24.11.1',
      ...sidecar,
    }),
  );
  return { file, sha256 };
}

describe('published agent executables, install scripts and agent updates', () => {
  let server: TestServer;
  let dir: string;
  let admin: string;
  let tech: string;
  const here = platformOf(process.platform, process.arch) ?? 'linux-x64';
  const hereOs = here.startsWith('darwin') ? 'macos' : 'linux';
  let published: { file: string; sha256: string };
  const sockets: AgentSocket[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-releases-'));
    published = publish(dir, here, STAND_IN, '1.0.1');
    // a sidecar whose sha256 does not match its executable is not published
    publish(dir, 'win-x64', 'MZ not the real thing', '1.0.1', { sha256: 'a'.repeat(64) });
    server = await startTestServer({ env: { AGENT_RELEASES_DIR: dir } });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    tech = (await server.devSignIn('tech@acme.example')).token;
  });
  afterAll(async () => {
    for (const s of sockets) {
      s.ws.close();
    }
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists only releases whose executable matches its sidecar, to anyone', async () => {
    const res = await server.request<Envelope<AgentRelease[]>>('GET', '/api/agent/releases');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        platform: here,
        os_type: hereOs,
        version: '1.0.1',
        sha256: published.sha256,
        size: STAND_IN.length,
        file_name: agentFileName(here),
        url: `/api/agent/releases/${here}`,
      }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(dir);
  });

  it('serves the executable with its checksum, and 404s with the reason otherwise', async () => {
    const res = await fetch(`${server.url}/api/agent/releases/${here}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(STAND_IN);
    expect(res.headers.get('x-checksum-sha256')).toBe(published.sha256);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${agentFileName(here)}"`);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');

    const tampered = await server.request<Envelope<null>>('GET', '/api/agent/releases/win-x64');
    expect(tampered.status).toBe(404);
    expect(tampered.body.error).toBe(releaseMessages.notPublished('win-x64'));
    const unknown = await server.request<Envelope<null>>('GET', '/api/agent/releases/solaris-sparc');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(releaseMessages.unknownPlatform('solaris-sparc'));
  });

  it('re-verifies a rebuilt executable and stops serving one changed behind its sidecar', async () => {
    const rebuilt = publish(dir, 'darwin-arm64', '#!/bin/sh\necho v2\n', '2.0.0');
    const listed = await server.request<Envelope<AgentRelease[]>>('GET', '/api/agent/releases');
    expect(listed.body.data.find((r) => r.platform === 'darwin-arm64')?.sha256).toBe(rebuilt.sha256);
    fs.writeFileSync(rebuilt.file, '#!/bin/sh\necho swapped behind the sidecar\n');
    const after = await server.request<Envelope<AgentRelease[]>>('GET', '/api/agent/releases');
    expect(after.body.data.map((r) => r.platform)).toEqual([here]);
    fs.rmSync(rebuilt.file);
    fs.rmSync(`${rebuilt.file}.json`);
  });

  it('serves an install.sh that sh and bash parse, with this server written in', async () => {
    const res = await fetch(`${server.url}/api/agent/install.sh`);
    expect(res.status).toBe(200);
    const script = await res.text();
    expect(script).toContain(`OUTPOST_SERVER='${server.url}'`);
    expect(script).toContain(`${here}) expected_sha256='${published.sha256}'`);
    const file = path.join(dir, 'install.sh');
    fs.writeFileSync(file, script);
    execFileSync('sh', ['-n', file]);
    execFileSync('bash', ['-n', file]);
  });

  describe('install.sh run for real (stand-in executable, no root: OUTPOST_INSTALL_DIR)', () => {
    let work: string;
    let script: string;
    beforeAll(async () => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-install-'));
      script = path.join(work, 'install.sh');
      fs.writeFileSync(script, await (await fetch(`${server.url}/api/agent/install.sh`)).text());
    });
    afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

    const env = (installDir: string, record: string) => ({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      OUTPOST_INSTALL_DIR: installDir,
      OUTPOST_TEST_RECORD: record,
    });

    it('downloads, verifies, and installs the service with the server and the token', async () => {
      const installDir = path.join(work, 'bin');
      const record = path.join(work, 'calls.txt');
      const { stdout } = await run('sh', [script, '--token', 'opt_secret-token'], {
        env: env(installDir, record),
      });
      expect(stdout).toContain('the agent runs as a service');
      const installed = path.join(installDir, 'outpost-agent');
      expect(fs.readFileSync(installed, 'utf8')).toBe(STAND_IN);
      expect(fs.statSync(installed).mode & 0o777).toBe(0o755);
      expect(fs.readFileSync(record, 'utf8').trim().split('\n')).toEqual([
        `install --server ${server.url} --token opt_secret-token`,
      ]);
      expect(fs.readdirSync(installDir)).toEqual(['outpost-agent']);
    });

    it('with --no-service, only enrols (passing --config on)', async () => {
      const installDir = path.join(work, 'bin2');
      const record = path.join(work, 'calls2.txt');
      await run('sh', [script, '--token=T0', '--config', '/tmp/x/agent.json', '--no-service'], {
        env: env(installDir, record),
      });
      expect(fs.readFileSync(record, 'utf8').trim().split('\n')).toEqual([
        `enroll --server ${server.url} --token T0 --config /tmp/x/agent.json`,
      ]);
    });

    it('refuses without a token, and refuses a download whose sha256 differs', async () => {
      const installDir = path.join(work, 'bin3');
      const record = path.join(work, 'calls3.txt');
      const noToken = await run('sh', [script], { env: env(installDir, record) }).catch(
        (e: { stderr: string }) => e,
      );
      expect('stderr' in noToken && noToken.stderr).toContain('an enrolment token is required');
      // the executable changes on the server after the script was fetched (a stale script)
      const original = fs.readFileSync(published.file);
      const tampered = `${STAND_IN}# changed\n`;
      publish(dir, here, tampered, '1.0.1');
      try {
        const refused = await run('sh', [script, '--token', 'T'], { env: env(installDir, record) }).catch(
          (e: { stderr: string }) => e,
        );
        expect('stderr' in refused && refused.stderr).toContain(
          `expected ${published.sha256}: not installed`,
        );
        expect(fs.existsSync(path.join(installDir, 'outpost-agent'))).toBe(false);
        expect(fs.existsSync(record)).toBe(false);
      } finally {
        publish(dir, here, original.toString('utf8'), '1.0.1');
      }
    });
  });

  it('serves install.ps1 with this server and the Windows checksum (none published here)', async () => {
    const res = await fetch(`${server.url}/api/agent/install.ps1`);
    expect(res.status).toBe(200);
    const script = await res.text();
    expect(script).toContain(`$OutpostServer = '${server.url}'`);
    expect(script).toContain(`$ExpectedSha256 = ''`);
  });

  it('refuses a Host header that is not a plain address instead of writing it into a script', async () => {
    const { status } = await new Promise<{ status: number }>((resolve, reject) => {
      const req = http.request(
        `${server.url}/api/agent/install.sh`,
        { headers: { host: "evil';rm -rf ~;'" } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  describe('POST /api/customer/agents/update', () => {
    let outdated: { id: number; socket: AgentSocket };
    let current: number;
    let windows: number;
    let offline: number;

    async function device(hostname: string, osType: string, agentVersion: string, online: boolean) {
      const token = await createEnrollmentToken(server, admin);
      const res = await enroll(server, token.token, facts({ hostname, osType, agentVersion }));
      const creds = res.body.data;
      let socket: AgentSocket | null = null;
      if (online) {
        socket = await onlineAgent(server.url, creds, { hostname, osType, agentVersion });
        sockets.push(socket);
      }
      const list = await server.request<Envelope<{ data: { id: number; device_guid: string }[] }>>(
        'GET',
        `/api/customer/devices?search=${hostname}`,
        { token: admin },
      );
      const id = list.body.data.data.find((d) => d.device_guid === creds.device_guid)!.id;
      return { id, socket };
    }

    beforeAll(async () => {
      const o = await device('upd-outdated', hereOs, '1.0.0', true);
      outdated = { id: o.id, socket: o.socket! };
      current = (await device('upd-current', hereOs, '1.0.1', true)).id;
      windows = (await device('upd-windows', 'windows', '1.0.0', true)).id;
      offline = (await device('upd-offline', hereOs, '1.0.0', false)).id;
    });

    const update = (ids: number[], token = admin) =>
      server.request<Envelope<UpdateAgentsResponse>>('POST', '/api/customer/agents/update', {
        token,
        body: { device_ids: ids },
      });

    it('queues update_agent for connected outdated agents, says why the others were skipped, and audits', async () => {
      const res = await update([outdated.id, current, windows, offline]);
      expect(res.status).toBe(200);
      expect(res.body.data.queued).toBe(1);
      expect(res.body.data.updates.map(({ command_id: _c, ...u }) => u)).toEqual([
        { device_id: outdated.id, from: '1.0.0', to: '1.0.1' },
      ]);
      const reasons = Object.fromEntries(res.body.data.skipped.map((s) => [s.device_id, s.reason]));
      expect(reasons).toEqual({
        [current]: releaseMessages.skippedCurrent('1.0.1'),
        [windows]: releaseMessages.skippedNoRelease('Windows'),
        [offline]: releaseMessages.skippedOffline,
      });
      const message: CommandMessage = await outdated.socket.waitFor(
        'command',
        (m) => m.command.kind === 'update_agent',
      );
      expect(message.commandId).toBe(res.body.data.updates[0]!.command_id);
      expect(message.command).toEqual({
        kind: 'update_agent',
        version: '1.0.1',
        builds: [
          {
            platform: here,
            version: '1.0.1',
            sha256: published.sha256,
            size: STAND_IN.length,
            url: `/api/agent/releases/${here}`,
          },
        ],
      });
      const audit = await server.database.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'Update Agent'), eq(auditLogs.resourceId, String(outdated.id))));
      expect(audit).toHaveLength(1);
    });

    it('does not queue a second update while one is on its way', async () => {
      const res = await update([outdated.id]);
      expect(res.status).toBe(200);
      expect(res.body.data.queued).toBe(0);
      expect(res.body.data.skipped[0]?.reason).toBe(releaseMessages.skippedPending);
    });

    it('409 when no executable is published for any selected agent', async () => {
      const res = await update([windows]);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'NO_AGENT_RELEASE', error: releaseMessages.noneForDevices });
    });

    it('is for administrators, and another tenant’s device is not found', async () => {
      expect((await update([outdated.id], tech)).status).toBe(403);
      const globex = (await server.devSignIn('admin@globex.example')).token;
      const res = await update([outdated.id], globex);
      expect(res.status).toBe(404);
    });

    it('rejects an empty selection with the contract message', async () => {
      const res = await update([]);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('Select at least one agent to update');
    });
  });
});
