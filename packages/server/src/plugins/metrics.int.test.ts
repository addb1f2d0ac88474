import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import type { SignInResult } from '@outpost/contract/auth';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import { isPostgresRun, startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { devices } from '../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
  REDIS_URL,
} from '../../test/support/live';
import type { AgentSocket, PortalSocket } from '../../test/support/live';

// GET /metrics (plugins/metrics.ts, docs/operations.md#metrics): who may read it,
// and that the named metrics are there with values that follow what the server did.

type Envelope<T> = { success: true; data: T };
type Sample = { name: string; labels: Record<string, string>; value: number };

const TOKEN = 'metrics-test-token-0123456789abcdef0123456789';

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) {
      continue;
    }
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]!] = l[2]!;
    }
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`; null when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | null {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.length === 0 ? null : found.reduce((sum, s) => sum + s.value, 0);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('metrics: not configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('answers 404 without METRICS_TOKEN, with or without a bearer token', async () => {
    const bare = await server.request<string>('GET', '/metrics');
    expect(bare.status).toBe(404);
    expect(bare.body).not.toContain('<html');
    expect((await server.request('GET', '/metrics', { token: TOKEN })).status).toBe(404);
    expect(server.app.metricsAddress).toBeUndefined();
  });

  it('is not part of the API document', async () => {
    const doc = await server.request<{ paths: Record<string, unknown> }>('GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toContain('/api/health');
    expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
  });
});

describe('metrics: METRICS_TOKEN', () => {
  let server: TestServer;
  let admin: SignInResult;
  const agents: AgentSocket[] = [];
  const portals: PortalSocket[] = [];

  const scrape = async () => {
    const res = await server.request<string>('GET', '/metrics', { token: TOKEN });
    expect(res.status).toBe(200);
    return parse(res.body);
  };

  beforeAll(async () => {
    server = await startTestServer({
      env: { METRICS_TOKEN: TOKEN, DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100', AGENT_PRESENCE_GRACE_MS: '0' },
    });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
  });
  afterAll(async () => {
    for (const socket of [...agents, ...portals]) {
      await socket.close(1000);
    }
    await server?.close();
  });

  it('answers 401 to a missing or wrong token and 200 with the metrics to the right one', async () => {
    const none = await server.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    for (const wrong of [`${TOKEN.slice(0, -1)}x`, 'short', `${TOKEN}${TOKEN}`]) {
      expect((await server.request('GET', '/metrics', { token: wrong })).status).toBe(401);
    }
    // A session token is not a metrics token.
    expect((await server.request('GET', '/metrics', { token: admin.token })).status).toBe(401);
    const ok = await server.request<string>('GET', '/metrics', { token: TOKEN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
    expect(ok.body).toContain('# TYPE outpost_http_request_duration_seconds histogram');
  });

  it('counts requests per route pattern, sockets, bus traffic, the database and the process', async () => {
    await server.request('GET', '/api/customer/devices', { token: admin.token });
    await server.request('GET', '/api/customer/devices');
    const enrolment = await createEnrollmentToken(server, admin.token, { name: 'metrics' });
    const creds = (await enroll(server, enrolment.token, facts({ hostname: 'metrics-pc' }))).body.data;
    // a portal follows the device, so its coming online is published (the in-process bus carries
    // only what some socket follows)
    const portal = connectPortalSocket(server.url, portalAuth(admin));
    portals.push(portal);
    await portal.opened;
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `device:${creds.device_guid}` } });
    await portal.waitFor('subscribed');
    agents.push(await onlineAgent(server.url, creds, { hostname: 'metrics-pc' }));

    const samples = await eventually(async () => {
      const s = await scrape();
      // the bus probe sent at start has come back; the portal socket is authenticated
      return (value(s, 'outpost_bus_lag_seconds_count') ?? 0) >= 1 && value(s, 'outpost_portal_sockets') === 1
        ? s
        : null;
    });
    const http = 'outpost_http_request_duration_seconds_count';
    expect(value(samples, http, { method: 'GET', route: '/api/customer/devices', status_class: '2xx' })).toBe(
      1,
    );
    expect(value(samples, http, { method: 'GET', route: '/api/customer/devices', status_class: '4xx' })).toBe(
      1,
    );
    // Patterns, not URLs: the enrolment route once, whatever its body.
    expect(value(samples, http, { method: 'POST', route: '/api/agent/enroll', status_class: '2xx' })).toBe(1);
    expect(samples.some((s) => s.name === http && (s.labels.route ?? '').includes('?'))).toBe(false);
    expect(value(samples, 'outpost_agents_connected')).toBe(1);
    expect(value(samples, 'outpost_bus_messages_published_total', { topic: 'portal' })).toBeGreaterThan(0);
    expect(value(samples, 'outpost_bus_messages_received_total', { topic: 'portal' })).toBeGreaterThan(0);
    expect(
      value(samples, 'outpost_bus_messages_published_total', { topic: 'metrics.probe' }),
    ).toBeGreaterThan(0);
    const kind = isPostgresRun() ? 'postgres' : 'pglite';
    expect(value(samples, 'outpost_database_info', { kind })).toBe(1);
    if (isPostgresRun()) {
      const total = value(samples, 'outpost_db_pool_total') ?? 0;
      expect(total).toBeGreaterThan(0);
      expect(value(samples, 'outpost_db_pool_idle')).toBeLessThanOrEqual(total);
      expect(value(samples, 'outpost_db_pool_waiting')).toBeGreaterThanOrEqual(0);
      expect(value(samples, 'outpost_db_pool_max')).toBe(10);
    } else {
      expect(value(samples, 'outpost_db_pool_total')).toBeNull();
    }
    expect(value(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value(samples, 'nodejs_eventloop_lag_seconds')).not.toBeNull();

    // The agent leaving shows at the next scrape.
    await agents.pop()!.close(1000);
    await eventually(async () => value(await scrape(), 'outpost_agents_connected') === 0);
  });

  it('reads deployments and device deployments by status, and the scheduler lag', async () => {
    const before = await scrape();
    // every status is reported, zero or not; the counts below are relative to these
    for (const status of ['pending', 'running', 'completed', 'failed', 'cancelled']) {
      expect(value(before, 'outpost_deployments', { status })).not.toBeNull();
      expect(value(before, 'outpost_device_deployments', { status })).not.toBeNull();
    }
    const jobs = (s: typeof before, status?: string) =>
      (value(s, 'outpost_deployments', status ? { status } : {}) ?? 0) -
      (value(before, 'outpost_deployments', status ? { status } : {}) ?? 0);
    const rows = (s: typeof before, status?: string) =>
      (value(s, 'outpost_device_deployments', status ? { status } : {}) ?? 0) -
      (value(before, 'outpost_device_deployments', status ? { status } : {}) ?? 0);
    expect(value(before, 'outpost_scheduler_lag_seconds_count')).toBe(0);

    const enrolment = await createEnrollmentToken(server, admin.token, { name: 'deploy' });
    const creds = (
      await enroll(server, enrolment.token, facts({ hostname: 'deploy-pc', machineId: 'mid-d' }))
    ).body.data;
    const agent = await onlineAgent(server.url, creds, { hostname: 'deploy-pc' });
    agents.push(agent);
    const [device] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const pkg = await server.request<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
      token: admin.token,
      body: { name: 'Metrics package' },
    });
    const step = await server.request('POST', `/api/customer/deployment-packages/${pkg.body.data.id}/steps`, {
      token: admin.token,
      body: {
        step_name: 'one',
        step_type: 'CMD',
        step_details: JSON.stringify({ command: 'echo one' }),
        retry_count: 0,
        fail_deployment_on_error: true,
      },
    });
    expect(step.status).toBe(200);
    const created = await server.request<Envelope<DeploymentJob>>('POST', '/api/customer/deployments', {
      token: admin.token,
      body: { package_id: pkg.body.data.id, device_ids: [device!.id], job_name: 'Metrics job' },
    });
    expect(created.status).toBe(200);

    const command = await agent.waitFor(
      'command',
      (m: CommandMessage) => m.command.kind === 'run_deployment',
    );
    const dispatched = await scrape();
    expect(value(dispatched, 'outpost_scheduler_lag_seconds_count')).toBe(1);
    expect(value(dispatched, 'outpost_scheduler_lag_seconds_sum')).toBeGreaterThanOrEqual(0);
    expect(jobs(dispatched, 'completed')).toBe(0);
    expect(jobs(dispatched)).toBe(1); // one more job, whatever its status now
    expect(rows(dispatched)).toBe(1);

    agent.send({
      type: 'command_result',
      messageId: 'metrics-result',
      commandId: command.commandId,
      status: 'completed',
      result: { deploymentStatus: 'completed', rebootRequired: false },
      error: null,
    });
    await agent.waitFor('ack', (a) => a.messageId === 'metrics-result');
    const done = await eventually(async () => {
      const s = await scrape();
      return jobs(s, 'completed') === 1 ? s : null;
    });
    expect(rows(done, 'completed')).toBe(1);
    expect(jobs(done, 'pending') + jobs(done, 'running')).toBe(0);
    expect(rows(done, 'pending') + rows(done, 'running')).toBe(0);
  });
});

describe('metrics: METRICS_PORT', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startTestServer({ env: { METRICS_PORT: String(port) } });
  });
  afterAll(async () => server?.close());

  it('serves /metrics on the internal port without a token, and not on the main port', async () => {
    expect(server.app.metricsAddress?.()).toEqual({ host: '127.0.0.1', port });
    const internal = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(internal.status).toBe(200);
    expect(await internal.text()).toContain('outpost_agents_connected 0');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await server.request('GET', '/metrics')).status).toBe(404);
  });
});

describe('metrics: METRICS_PORT and METRICS_TOKEN', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startTestServer({ env: { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => server?.close());

  it('asks for the token on the internal port too', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    const ok = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.status).toBe(200);
    expect((await server.request('GET', '/metrics', { token: TOKEN })).status).toBe(200);
  });
});

// Over Redis (TEST_REDIS_URL, else the local default, as the scale-out tests): the probe makes the
// round trip through Redis, so the bus lag is Redis's.
describe('metrics: bus over Redis', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        METRICS_TOKEN: TOKEN,
        REDIS_URL,
        REDIS_CHANNEL_PREFIX: `outpost-test-${crypto.randomBytes(4).toString('hex')}:`,
      },
    });
  });
  afterAll(async () => server?.close());

  it('counts the probe published and received, and its lag', async () => {
    const samples = await eventually(async () => {
      const res = await server.request<string>('GET', '/metrics', { token: TOKEN });
      const s = parse(res.body);
      return (value(s, 'outpost_bus_lag_seconds_count') ?? 0) >= 1 ? s : null;
    });
    const topic = { topic: 'metrics.probe' };
    expect(value(samples, 'outpost_bus_messages_published_total', topic)).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'outpost_bus_messages_received_total', topic)).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'outpost_bus_lag_seconds_sum')).toBeGreaterThanOrEqual(0);
  });
});
