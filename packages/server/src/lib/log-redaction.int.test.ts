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
} from '../live/test-support';

type Envelope<T> = { success: boolean; data: T; error?: string };

// The server's own logger configuration (as main.ts builds it), at its most verbose, with every
// line captured: after sign-in, REST calls, a portal socket and an agent, no credential is in it.
describe('credentials never reach the log', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let database: Database;
  let url: string;

  const request = async <T>(method: string, path: string, opts: { token?: string; body?: unknown } = {}) => {
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
    return { status: res.status, body: (await res.json()) as T };
  };

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: `/tmp/outpost-log-test-${process.pid}`,
      SESSION_SECRET: 'log-redaction-tests-session-secret-0123456789',
      LOG_LEVEL: 'trace',
      DATABASE_URL: '',
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

    // The spec's socket URL carries the token in its query (core §7 Websocket).
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

    await new Promise((resolve) => setTimeout(resolve, 100));
    const log = lines.join('');
    // The log is there and does record the socket request, with the token's value redacted.
    expect(log).toContain('/api/ws?');
    expect(log).toContain('token=[redacted]');
    for (const credential of [signature, enrolment.token, enrolled.body.data.agent_secret]) {
      expect(log).not.toContain(credential);
    }
  });
});
