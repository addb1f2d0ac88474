import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AuditListResponse } from '@outpost/contract/audit';
import type { DeploymentJob, DeploymentJobDetail, StepLogsResponse } from '@outpost/contract/deployments';
import type { UploadedFile } from '@outpost/contract/files';
import type { PackageDetail } from '@outpost/contract/packages';
import type { SignInResult } from '@outpost/contract/auth';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createStepsRunner } from '@outpost/agent/deployment/steps-runner';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend } from '@outpost/agent/system-backend';
import {
  clusterNginxConfig,
  deployNginxConfig,
  findNginx,
  freePort,
  startNginx,
  testNginxConfig,
} from '../../../scripts/nginx.mjs';
import type { RunningNginx } from '../../../scripts/nginx.mjs';
import { startTestServer } from '../test/harness';
import type { TestServer } from '../test/harness';
import { startOidcFixture } from '../test/oidc-fixture';
import { devices } from './db/schema/index';
import {
  connectPortalSocket,
  eventually,
  facts,
  portalAuth,
  REDIS_URL,
  throwawayDatabase,
} from '../test/support/live';

// Two instances on one PostgreSQL and one Redis behind nginx running deploy/nginx.conf
// (scripts/nginx.mjs substitutes only the listen address, the upstream's servers and TLS). The
// main listener spreads requests over both instances like production; two more listeners, copies
// of the same server block each proxying to one instance, let the test put the agent on instance
// A and the portal socket on instance B. Always on a real PostgreSQL and Redis (as the other
// multi-instance tests), and Debian's nginx (scripts/test-all.mjs installs it when missing).

type Envelope<T> = { success: boolean; data: T; error?: string };
type Reply<T> = { status: number; body: T; headers: Headers };

/** fetch against a base URL: JSON in, parsed JSON out (the harness's request, for nginx's URLs). */
function client(base: string) {
  return async <T>(
    method: string,
    urlPath: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) {
      headers.authorization = `Bearer ${opts.token}`;
    }
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(base + urlPath, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  };
}

const hostPort = (url: string) => new URL(url).host;

describe('two instances behind nginx (deploy/nginx.conf)', () => {
  const nginxBinary = findNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-cluster-test-'));
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let a: TestServer;
  let b: TestServer;
  let nginx: RunningNginx | null = null;
  let agent: Agent | null = null;
  let nginxOutput = '';
  const accessLog = path.join(dir, 'access.log');
  /** instances a test stopped itself */
  const closed = new Set<TestServer>();
  /** the load-balanced listener, and the ones pinned to instance A and to instance B */
  const urls = { main: '', a: '', b: '' };
  let idp: Awaited<ReturnType<typeof startOidcFixture>>;
  const googleSignIn = async (headers: Record<string, string> = {}) =>
    client(urls.main)<Envelope<SignInResult>>('POST', '/api/customer/auth/google', {
      body: { token: await idp.mint({ email: 'admin@acme.example' }) },
      headers,
    });

  beforeAll(async () => {
    if (!nginxBinary) {
      throw new Error('nginx is not installed: `apt-get install nginx` (npm test installs it)');
    }
    db = await throwawayDatabase();
    // People sign in through the identity provider: dev sign-in is never offered behind a proxy.
    idp = await startOidcFixture();
    const env = {
      ...idp.env,
      REDIS_URL,
      REDIS_CHANNEL_PREFIX: `outpost-test-${crypto.randomBytes(4).toString('hex')}:`,
      TRUST_PROXY: '1',
      DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100',
    };
    a = await startTestServer({ databaseUrl: db.url, env });
    b = await startTestServer({ databaseUrl: db.url, env });
    await a.seedDemo();
    // nginx cannot listen on port 0: ports free a moment ago, tried again if one was taken since
    for (let attempt = 1; !nginx; attempt++) {
      const [main, pinA, pinB] = [await freePort(), await freePort(), await freePort()];
      const config = clusterNginxConfig({
        listen: `127.0.0.1:${main}`,
        upstreams: [hostPort(a.url), hostPort(b.url)],
        pinned: [
          { listen: `127.0.0.1:${pinA}`, upstream: hostPort(a.url) },
          { listen: `127.0.0.1:${pinB}`, upstream: hostPort(b.url) },
        ],
        accessLog,
      });
      try {
        nginx = await startNginx({
          config,
          ports: [main, pinA, pinB],
          onOutput: (text) => (nginxOutput += text),
        });
        urls.main = `http://127.0.0.1:${main}`;
        urls.a = `http://127.0.0.1:${pinA}`;
        urls.b = `http://127.0.0.1:${pinB}`;
      } catch (err) {
        if (attempt >= 3 || !String(err).includes('Address already in use')) {
          throw err;
        }
      }
    }
  });
  afterAll(async () => {
    await idp?.close();
    await agent?.stop();
    await nginx?.stop();
    for (const server of [a, b]) {
      if (server && !closed.has(server)) {
        await server.close();
      }
    }
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('nginx -t accepts deploy/nginx.conf as written (with a throwaway certificate) and the generated loopback config', () => {
    const certificate = path.join(dir, 'cert.pem');
    const certificateKey = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=outpost.example.com',
      ].concat(['-keyout', certificateKey, '-out', certificate]),
      { stdio: 'ignore' },
    );
    const deployed = testNginxConfig(deployNginxConfig({ certificate, certificateKey }));
    expect(deployed.output).toContain('test is successful');
    expect(deployed.ok).toBe(true);

    const generated = clusterNginxConfig({
      listen: '127.0.0.1:8080',
      upstreams: ['127.0.0.1:3001', '127.0.0.1:3002'],
    });
    const tested = testNginxConfig(generated);
    expect(tested.output).toContain('test is successful');
    expect(tested.ok).toBe(true);
    // only the listen address, the upstream's servers and TLS differ from the deploy file
    expect(generated).toContain('listen 127.0.0.1:8080;');
    expect(generated).toMatch(
      /server 127\.0\.0\.1:3001 max_fails=3 fail_timeout=10s;\s+server 127\.0\.0\.1:3002/,
    );
    expect(generated).not.toMatch(/ssl_|listen 443|return 301/);
    expect(generated).toMatch(/location = \/api\/agent\/ws \{\s+proxy_pass http:\/\/outpost;/);
    expect(generated).toContain('proxy_set_header Connection $outpost_connection;');
  });

  it('signs in, enrols an agent through instance A, follows it on a portal socket on instance B, and runs a deployment it completes', async () => {
    const main = client(urls.main);
    const viaA = client(urls.a);
    const viaB = client(urls.b);

    // Behind nginx with TRUST_PROXY=1 the caller is the address nginx appended, not one the client
    // wrote into X-Forwarded-For itself.
    const signIn = await googleSignIn({ 'x-forwarded-for': '203.0.113.7' });
    expect(signIn.status).toBe(200);
    const admin = signIn.body.data;
    const token = admin.token;
    const audit = await viaB<Envelope<AuditListResponse>>('GET', '/api/customer/audit?limit=5', { token });
    const login = audit.body.data.data.find((e) => e.action === 'Login' && e.user_id === admin.user.id);
    expect(login?.ip_address).toBe('127.0.0.1');

    // The install command names the URL the browser used: nginx's, port included.
    const enrolment = await main<Envelope<CreatedEnrollmentToken>>(
      'POST',
      '/api/customer/agents/enrollment-tokens',
      {
        token,
        body: {},
      },
    );
    expect(enrolment.status).toBe(200);
    expect(enrolment.body.data.enroll_command).toContain(`${urls.main}/api/agent/install.sh `);

    const enrolled = await viaA<Envelope<EnrollResult>>('POST', '/api/agent/enroll', {
      body: { token: enrolment.body.data.token, facts: facts({ hostname: 'behind-nginx', osType: 'linux' }) },
    });
    expect(enrolled.status).toBe(200);
    const creds = enrolled.body.data;

    // The portal socket, upgraded by nginx, on instance B.
    const portal = connectPortalSocket(urls.b, portalAuth(admin));
    await portal.waitFor('connection_status');
    expect(b.app.portalHub.socketCount).toBe(1);
    expect(a.app.portalHub.socketCount).toBe(0);
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `device:${creds.device_guid}` } });
    await portal.waitFor('subscribed');

    // The real agent, talking to instance A through nginx (socket and file downloads).
    const workDir = path.join(dir, 'work');
    const agentOptions = { server: urls.a, deviceGuid: creds.device_guid, agentSecret: creds.agent_secret };
    agent = createAgent({
      ...agentOptions,
      outbox: createFileOutbox(path.join(dir, 'outbox')),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor: new RecordingExecutor(),
      deployments: createStepsRunner({ ...agentOptions, workDir }),
    });
    agent.start();
    const online = await portal.waitFor(
      'device_update',
      (m) => m.payload.deviceId === creds.device_guid && m.payload.status === 'online',
      20_000,
    );
    expect(online.payload.hostname).toBeTruthy();
    const [device] = await a.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    expect(a.app.agentHub.isConnectedHere(device!.id)).toBe(true);
    expect(b.app.agentHub.isConnectedHere(device!.id)).toBe(false);

    // A package with an uploaded script (streamed through nginx's upload location) and a command.
    const form = new FormData();
    form.append('file', new Blob(['#!/bin/sh\necho "script ran with $1"\n']), 'hello.sh');
    const uploadRes = await fetch(`${urls.main}/api/customer/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploadRes.status).toBe(200);
    const script = ((await uploadRes.json()) as Envelope<UploadedFile>).data;
    const pkg = (
      await main<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
        token,
        body: { name: 'Through nginx', target_os: 'linux' },
      })
    ).body.data;
    for (const step of [
      { step_name: 'Say hello', step_type: 'CMD', step_details: { command: 'echo hello-through-nginx' } },
      {
        step_name: 'Run the script',
        step_type: 'EXE',
        step_details: { source_type: 'upload', file: script, arguments: '--quiet' },
      },
    ]) {
      const res = await main('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
        token,
        body: { ...step, step_details: JSON.stringify(step.step_details) },
      });
      expect(res.status).toBe(200);
    }

    // Created through instance B; the agent on instance A gets it through Redis.
    const created = await viaB<Envelope<DeploymentJob>>('POST', '/api/customer/deployments', {
      token,
      body: { package_id: pkg.id, device_ids: [device!.id], job_name: 'Cluster run' },
    });
    expect(created.status).toBe(200);
    const jobId = created.body.data.id;
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `deployment:${jobId}` } });
    const done = await portal.waitFor(
      'deployment_update',
      (m) => m.payload.deploymentId === jobId && m.payload.status === 'completed',
      30_000,
    );
    expect(done.payload).toMatchObject({ status: 'completed' });

    const job = (
      await main<Envelope<DeploymentJobDetail>>('GET', `/api/customer/deployments/${jobId}`, { token })
    ).body.data;
    expect(job).toMatchObject({ status: 'completed', completed_devices: 1, failed_devices: 0 });
    const logs = (
      await viaA<Envelope<StepLogsResponse>>(
        'GET',
        `/api/customer/deployments/device-deployment/${job.deployments[0]!.id}/logs`,
        { token },
      )
    ).body.data.logs;
    expect(logs.map((l) => [l.step_name, l.status])).toEqual([
      ['Say hello', 'completed'],
      ['Run the script', 'completed'],
    ]);
    expect(logs[0]!.stdout_log).toContain('hello-through-nginx');
    expect(logs[1]!.stdout_log).toContain('script ran with --quiet');

    // The device's record, read through the load-balanced listener, says it is online.
    await eventually(async () => {
      const res = await main<Envelope<{ status: string }>>('GET', `/api/customer/devices/${device!.id}`, {
        token,
      });
      return res.body.data?.status === 'online';
    });
    await portal.close();
    await agent.stop();
    agent = null;

    // nginx's access log names the instance behind each socket and never holds a token (the
    // portal socket's is in its query string).
    const log = fs.readFileSync(accessLog, 'utf8');
    expect(log).toMatch(
      new RegExp(
        `"GET /api/agent/ws HTTP/1.1" 101 .* upstream=${hostPort(a.url).replace(/\./g, '\\.')} .*req=[0-9a-f]{32}`,
      ),
    );
    expect(log).toMatch(
      new RegExp(`"GET /api/ws HTTP/1.1" 101 .* upstream=${hostPort(b.url).replace(/\./g, '\\.')} `),
    );
    expect(log).not.toContain(token);
    expect(log).not.toContain(creds.agent_secret);
    expect(nginxOutput).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  }, 90_000);

  it('an instance stops (a rolling restart): nginx sends requests and the agent’s new socket to the other one', async () => {
    const main = client(urls.main);
    const { token } = (await googleSignIn()).body.data;
    const enrolment = await main<Envelope<CreatedEnrollmentToken>>(
      'POST',
      '/api/customer/agents/enrollment-tokens',
      {
        token,
        body: {},
      },
    );
    const creds = (
      await main<Envelope<EnrollResult>>('POST', '/api/agent/enroll', {
        body: { token: enrolment.body.data.token, facts: facts({ hostname: 'rolling', osType: 'linux' }) },
      })
    ).body.data;
    const agentOptions = {
      server: urls.main,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
    };
    agent = createAgent({
      ...agentOptions,
      outbox: createFileOutbox(path.join(dir, 'outbox-rolling')),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor: new RecordingExecutor(),
      deployments: createStepsRunner({ ...agentOptions, workDir: path.join(dir, 'work-rolling') }),
      backoff: { baseMs: 100, capMs: 500 },
    });
    agent.start();
    const [device] = await eventually(async () => {
      const rows = await a.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      return rows[0]?.status === 'online' ? rows : null;
    });
    const holder = await eventually(() =>
      Promise.resolve([a, b].find((s) => s.app.agentHub.isConnectedHere(device!.id))),
    );
    const other = holder === a ? b : a;

    // The instance holding the agent stops, as `systemctl restart outpost@…` would stop it.
    await holder.close();
    closed.add(holder);
    for (let i = 0; i < 10; i++) {
      const health = await main<Envelope<{ status: string }>>('GET', '/api/health');
      expect(health.status).toBe(200);
    }
    await eventually(() => Promise.resolve(other.app.agentHub.isConnectedHere(device!.id)), 20_000);
    const res = await main<Envelope<{ status: string }>>('GET', `/api/customer/devices/${device!.id}`, {
      token,
    });
    expect(res.status).toBe(200);
    await eventually(async () => {
      const r = await main<Envelope<{ status: string }>>('GET', `/api/customer/devices/${device!.id}`, {
        token,
      });
      return r.body.data?.status === 'online';
    });
  }, 60_000);
});
