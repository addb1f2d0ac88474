import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SignInResult } from '@outpost/contract/auth';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import type { Database } from '../db/client';
import { seedDemo } from '../modules/demo/demo.seed';
import { createLocalBlobStore } from '../modules/files/blob-store';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  onlineAgent,
  portalAuth,
} from '../../test/support/live';

type Envelope<T> = { success: boolean; data: T; error?: string };
type LogLine = { msg?: string; reqId?: string; tenantId?: number; userId?: number; req?: { url?: string } };

const METRICS_TOKEN = 'log-redaction-metrics-token-0123456789abcdef';

// The server's own logger configuration (as main.ts builds it), at its most verbose, with every
// line captured: after sign-in, REST calls, a portal socket and an agent, no credential is in it.
describe('credentials never reach the log', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let database: Database;
  let url: string;

  const request = async <T>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; text?: boolean } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (opts.token) {
      headers.authorization = `Bearer ${opts.token}`;
    }
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url + path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return { status: res.status, body: (opts.text ? await res.text() : await res.json()) as T };
  };

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: `/tmp/outpost-log-test-${process.pid}`,
      SESSION_SECRET: 'log-redaction-tests-session-secret-0123456789',
      LOG_LEVEL: 'trace',
      DATABASE_URL: '',
      METRICS_TOKEN,
      OUTPOST_ALLOW_DEV_LOGIN: '1',
    });
    database = await openDatabase({});
    app = await buildApp({ config, database, logStream: { write: (line) => void lines.push(line) } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    await seedDemo(database.db, { blobStore: createLocalBlobStore(config.blobDir) });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('keeps the portal socket token, bearer tokens, enrolment tokens and agent secrets out', async () => {
    const signIn = await request<Envelope<SignInResult>>('POST', '/api/customer/auth/dev', {
      body: { email: 'admin@acme.example' },
    });
    expect(signIn.status).toBe(200);
    const session = signIn.body.data;
    const signature = session.token.split('.').at(-1) ?? '';
    expect(signature.length).toBeGreaterThan(20);

    // The product's socket URL carries the token in its query (docs/product/live-updates.md#channels).
    const socket = connectPortalSocket(url, portalAuth(session));
    await socket.opened;
    await socket.close(1000);
    // A refused socket (wrong user id) logs too.
    const refused = connectPortalSocket(url, { ...portalAuth(session), userId: session.user.id + 1000 });
    await refused.closed;

    expect((await request('GET', '/api/customer/auth/profile', { token: session.token })).status).toBe(200);
    // A token pasted into a query string of any route, and a 404 for a made-up one.
    await request('GET', `/api/customer/devices?token=${session.token}&page=1`, { token: session.token });
    await request('GET', `/api/nothing?access_token=${session.token}`);

    const enrolment = await createEnrollmentToken(request, session.token, { name: 'log test' });
    const enrolled = await enroll(request, enrolment.token);
    expect(enrolled.status).toBe(200);
    const agent = await onlineAgent(url, enrolled.body.data);
    await agent.close(1000);

    // The metrics scraper's token, the right one and a wrong one (metrics use the same logger).
    expect((await request('GET', '/metrics', { token: METRICS_TOKEN, text: true })).status).toBe(200);
    const wrongMetricsToken = `${METRICS_TOKEN.slice(0, -4)}nope`;
    expect((await request('GET', '/metrics', { token: wrongMetricsToken, text: true })).status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, 100));
    const log = lines.join('');
    // The log is there and does record the socket request, with the token's value redacted.
    expect(log).toContain('/api/ws?');
    expect(log).toContain('token=[redacted]');
    for (const credential of [
      signature,
      enrolment.token,
      enrolled.body.data.agent_secret,
      METRICS_TOKEN,
      wrongMetricsToken,
    ]) {
      expect(log).not.toContain(credential);
    }
  });

  it('puts the request id, tenant id and user id on a signed-in request’s log lines', async () => {
    const session = (
      await request<Envelope<SignInResult>>('POST', '/api/customer/auth/dev', {
        body: { email: 'admin@acme.example' },
      })
    ).body.data;
    const from = lines.length;
    expect((await request('GET', '/api/customer/devices?page=1', { token: session.token })).status).toBe(200);
    expect((await request('GET', '/api/health')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const logged = lines.slice(from).map((line) => JSON.parse(line) as LogLine);
    const incoming = logged.find(
      (l) => l.msg === 'incoming request' && l.req?.url === '/api/customer/devices?page=1',
    );
    expect(incoming?.reqId).toBeTruthy();
    const completed = logged.filter((l) => l.msg === 'request completed' && l.reqId === incoming?.reqId);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ tenantId: session.user.tenant_id, userId: session.user.id });
    // A public route has no caller to name.
    const health = logged.find((l) => l.msg === 'incoming request' && l.req?.url === '/api/health');
    const healthDone = logged.find((l) => l.msg === 'request completed' && l.reqId === health?.reqId);
    expect(healthDone).toBeDefined();
    expect(healthDone?.tenantId).toBeUndefined();
    expect(healthDone?.userId).toBeUndefined();
  });
});
