import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { AppConfig, SignInResult } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { startOidcFixture } from '../../../test/oidc-fixture';
import { auditLogs } from '../../db/schema/index';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// The test client connects from 127.0.0.1, which plays the reverse proxy in front of Outpost: it
// sends X-Forwarded-For as a proxy would, the client's real address appended at the right.
const forwarded = (chain: string) => ({ 'x-forwarded-for': chain });
const REAL_CLIENT = '203.0.113.7';

describe('TRUST_PROXY=1 trusts one hop only', () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startOidcFixture>>;

  beforeAll(async () => {
    // Remote people sign in through the identity provider (dev sign-in is never offered here).
    idp = await startOidcFixture();
    server = await startTestServer({ env: { TRUST_PROXY: '1', ...idp.env } });
    await server.seedDemo();
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  const signIn = async (email: string, chain: string) =>
    server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/google', {
      body: { token: await idp.mint({ email }) },
      headers: forwarded(chain),
    });

  it('records the address the proxy saw, not a spoofed leftmost X-Forwarded-For', async () => {
    const res = await signIn('admin@acme.example', `198.51.100.99, ${REAL_CLIENT}`);
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
      statuses.push((await signIn('nobody@nowhere.example', `10.9.${i}.1, 192.0.2.44`)).status);
    }
    // 30 a minute per client address (the first test used another address).
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });
});

// SECURITY.md R2-7: dev sign-in is an explicit opt-in, never inferred from addresses alone.
describe('dev sign-in is refused behind any proxy, and off unless turned on', () => {
  let proxied: TestServer;
  let direct: TestServer;
  let off: TestServer;

  beforeAll(async () => {
    proxied = await startTestServer({ env: { TRUST_PROXY: '1', OUTPOST_ALLOW_DEV_LOGIN: '1' } });
    await proxied.seedDemo();
    direct = await startTestServer({ env: { HOST: '0.0.0.0', OUTPOST_ALLOW_DEV_LOGIN: '1' } });
    await direct.seedDemo();
    off = await startTestServer({ env: { OUTPOST_ALLOW_DEV_LOGIN: '0' } });
    await off.seedDemo();
  });
  afterAll(async () => {
    await proxied.close();
    await direct.close();
    await off.close();
  });

  const signIn = (server: TestServer, headers: Record<string, string> = {}) =>
    server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/dev', {
      body: { email: 'admin@acme.example' },
      headers,
    });
  const config = async (server: TestServer, headers: Record<string, string> = {}) =>
    (await server.request<Envelope<AppConfig>>('GET', '/api/config', { headers })).body.data;

  it('is never offered with TRUST_PROXY set, whatever the client claims or sends', async () => {
    for (const headers of [{}, forwarded('127.0.0.1'), forwarded(REAL_CLIENT)]) {
      const res = await signIn(proxied, headers);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(messages.devLoginLocalOnly);
      expect(await config(proxied, headers)).toMatchObject({ devLogin: false, devUsers: [] });
    }
  });

  it('is offered to a loopback caller with no forwarding header, whatever the bind address', async () => {
    expect((await signIn(direct)).status).toBe(200);
    expect((await config(direct)).devLogin).toBe(true);
    // A proxy Outpost was not told about announces itself with a forwarding header: not local.
    for (const headers of [forwarded(REAL_CLIENT), forwarded('127.0.0.1'), { forwarded: 'for=127.0.0.1' }]) {
      const relayed = await signIn(direct, headers);
      expect(relayed.status).toBe(403);
      expect(relayed.body.error).toBe(messages.devLoginLocalOnly);
      expect((await config(direct, headers)).devLogin).toBe(false);
    }
  });

  it('is off, even from loopback, unless OUTPOST_ALLOW_DEV_LOGIN=1 (a same-machine proxy looks local)', async () => {
    const res = await signIn(off);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(messages.devLoginDisabled);
    expect(await config(off)).toMatchObject({ devLogin: false, devUsers: [] });
  });
});
