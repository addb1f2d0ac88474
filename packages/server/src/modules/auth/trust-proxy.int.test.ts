import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { AppConfig, SignInResult } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// The test client connects from 127.0.0.1, which plays the reverse proxy in front of Outpost: it
// sends X-Forwarded-For as a proxy would, the client's real address appended at the right.
const forwarded = (chain: string) => ({ 'x-forwarded-for': chain });
const REAL_CLIENT = '203.0.113.7';

describe('TRUST_PROXY=1 trusts one hop only', () => {
  let server: TestServer;

  beforeAll(async () => {
    // OUTPOST_ALLOW_DEV_LOGIN lets remote callers sign in, so the audit entry shows the address.
    server = await startTestServer({ env: { TRUST_PROXY: '1', OUTPOST_ALLOW_DEV_LOGIN: '1' } });
    await server.seedDemo();
  });
  afterAll(() => server.close());

  it('records the address the proxy saw, not a spoofed leftmost X-Forwarded-For', async () => {
    const res = await server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/dev', {
      body: { email: 'admin@acme.example' },
      headers: forwarded(`198.51.100.99, ${REAL_CLIENT}`),
    });
    expect(res.status).toBe(200);
    const [entry] = await server.database.db
      .select({ ip: auditLogs.ipAddress })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Login'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(entry?.ip).toBe(REAL_CLIENT);
  });

  it('rate-limits sign-in by that address however the leftmost entry changes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await server.request('POST', '/api/customer/auth/dev', {
        body: { email: 'nobody@nowhere.example' },
        headers: forwarded(`10.9.${i}.1, 192.0.2.44`),
      });
      statuses.push(res.status);
    }
    // 30 a minute per client address (the first test used another address).
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });
});

describe('dev sign-in is judged by the caller’s own address', () => {
  let proxied: TestServer;
  let direct: TestServer;

  beforeAll(async () => {
    proxied = await startTestServer({ env: { TRUST_PROXY: '1' } });
    await proxied.seedDemo();
    direct = await startTestServer({ env: { HOST: '0.0.0.0' } });
    await direct.seedDemo();
  });
  afterAll(async () => {
    await proxied.close();
    await direct.close();
  });

  const signIn = (server: TestServer, headers: Record<string, string> = {}) =>
    server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/dev', {
      body: { email: 'admin@acme.example' },
      headers,
    });
  const config = async (server: TestServer, headers: Record<string, string> = {}) =>
    (await server.request<Envelope<AppConfig>>('GET', '/api/config', { headers })).body.data;

  it('refuses a remote client behind the proxy, even one that claims to be 127.0.0.1', async () => {
    for (const chain of [REAL_CLIENT, `127.0.0.1, ${REAL_CLIENT}`]) {
      const res = await signIn(proxied, forwarded(chain));
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(messages.devLoginLocalOnly);
      expect(await config(proxied, forwarded(chain))).toMatchObject({ devLogin: false, devUsers: [] });
    }
  });

  it('accepts a client on this machine, directly or through the proxy', async () => {
    expect((await signIn(proxied)).status).toBe(200);
    expect((await signIn(proxied, forwarded('127.0.0.1'))).status).toBe(200);
    const offered = await config(proxied);
    expect(offered.devLogin).toBe(true);
    expect(offered.devUsers.map((u) => u.email)).toContain('admin@acme.example');
  });

  it('does not open up because the server is bound to every address, nor trust unconfigured proxies', async () => {
    // Bound to 0.0.0.0, a loopback caller may sign in …
    expect((await signIn(direct)).status).toBe(200);
    // … but a request relayed by a proxy Outpost was not told about (TRUST_PROXY unset) is not local.
    const relayed = await signIn(direct, forwarded(REAL_CLIENT));
    expect(relayed.status).toBe(403);
    expect(relayed.body.error).toBe(messages.devLoginLocalOnly);
    expect((await config(direct, forwarded(REAL_CLIENT))).devLogin).toBe(false);
  });
});
