import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';

// A client that reaches the instance directly, not through the proxy, and writes its own
// X-Forwarded-For: the audit log and the sign-in rate limit must take the address its socket
// comes from, never the one it wrote (SECURITY.md R2-8). OUTPOST_ALLOW_DEV_LOGIN lets callers
// from any address sign in, so each sign-in writes an audit entry with the address used.

const SPOOFED = '198.51.100.77';
const REAL_CLIENT = '203.0.113.7';
const signInBody = JSON.stringify({ email: 'admin@acme.example' });

/** A sign-in over HTTP from `localAddress` (any 127.x address reaches a loopback listener). */
function signInFrom(server: TestServer, localAddress: string, xff: string, email = 'admin@acme.example') {
  const url = new URL('/api/customer/auth/dev', server.url);
  const body = email === 'admin@acme.example' ? signInBody : JSON.stringify({ email });
  return new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      localAddress,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function lastLoginAddress(server: TestServer): Promise<string | null | undefined> {
  const [entry] = await server.database.db
    .select({ ip: auditLogs.ipAddress })
    .from(auditLogs)
    .where(eq(auditLogs.action, 'Login'))
    .orderBy(desc(auditLogs.id))
    .limit(1);
  return entry?.ip;
}

describe('TRUST_PROXY naming the proxy: a direct client cannot choose its address', () => {
  let server: TestServer;

  beforeAll(async () => {
    // The proxy is 127.0.0.1; 127.0.0.2 plays a client that connects to the instance directly.
    server = await startTestServer({
      env: { TRUST_PROXY: '127.0.0.1', OUTPOST_ALLOW_DEV_LOGIN: '1', SIGN_IN_PER_MINUTE: '5' },
    });
    await server.seedDemo();
  });
  afterAll(() => server.close());

  it('audits the direct client’s own address, and the address the proxy appended for a proxied one', async () => {
    expect(await signInFrom(server, '127.0.0.2', SPOOFED)).toBe(200);
    expect(await lastLoginAddress(server)).toBe('127.0.0.2');
    expect(await signInFrom(server, '127.0.0.1', `${SPOOFED}, ${REAL_CLIENT}`)).toBe(200);
    expect(await lastLoginAddress(server)).toBe(REAL_CLIENT);
  });

  it('rate-limits the direct client by its socket address however its X-Forwarded-For changes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(await signInFrom(server, '127.0.0.3', `10.7.${i}.1`, 'nobody@nowhere.example'));
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});

describe('TRUST_PROXY as a hop count trusts only a peer on this machine', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: '1', OUTPOST_ALLOW_DEV_LOGIN: '1', SIGN_IN_PER_MINUTE: '5' },
    });
    await server.seedDemo();
  });
  afterAll(() => server.close());

  // A hop count is refused at start unless the instance listens on loopback (config.test.ts,
  // start-refusals.int.test.ts). A remote peer cannot be made over loopback, so these requests go
  // through the real application with the peer's address set by Fastify's inject.
  const injectSignIn = (remoteAddress: string, xff: string, email = 'admin@acme.example') =>
    server.app.inject({
      method: 'POST',
      url: '/api/customer/auth/dev',
      remoteAddress,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
      payload: JSON.stringify({ email }),
    });

  it('takes the socket address of a remote peer, not the X-Forwarded-For it wrote', async () => {
    expect((await injectSignIn('192.0.2.50', SPOOFED)).statusCode).toBe(200);
    expect(await lastLoginAddress(server)).toBe('192.0.2.50');
    // through the proxy on this machine, the entry it appended
    expect((await injectSignIn('127.0.0.1', `${SPOOFED}, ${REAL_CLIENT}`)).statusCode).toBe(200);
    expect(await lastLoginAddress(server)).toBe(REAL_CLIENT);
  });

  it('rate-limits that remote peer by its own address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await injectSignIn('192.0.2.60', `10.8.${i}.1`, 'nobody@nowhere.example')).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});
