import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@outpost/contract/messages';
import type { SignInResult, TenantOption } from '@outpost/contract/auth';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { startOidcFixture } from '../../../test/oidc-fixture';
import { users, auditLogs } from '../../db/schema/index';

type Envelope<T> = { success: boolean; data: T; error?: string; fields?: { path: string }[] };

describe('Google sign-in (real verifier against a local JWKS)', () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startOidcFixture>>;

  beforeAll(async () => {
    idp = await startOidcFixture();
    // Google only: dev sign-in stays off unless OUTPOST_ALLOW_DEV_LOGIN turns it on (R2-7).
    server = await startTestServer({ env: { ...idp.env, OUTPOST_ALLOW_DEV_LOGIN: '0' } });
    await server.seedDemo();
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  const signIn = (token: unknown) =>
    server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/google', { body: { token } });

  it('issues a session for a valid token of an invited user', async () => {
    const res = await signIn(await idp.mint({ email: 'Admin@Acme.example', name: 'Alex' }));
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      email: 'admin@acme.example',
      tenant_name: 'Acme Corp',
      role: 'tenant_admin',
    });
    const profile = await server.request<Envelope<{ email: string }>>('GET', '/api/customer/auth/profile', {
      token: res.body.data.token,
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data.email).toBe('admin@acme.example');
  });

  it('writes a Login audit entry in the tenant', async () => {
    await signIn(await idp.mint({ email: 'tech@acme.example' }));
    const rows = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.userEmail, 'tech@acme.example'));
    expect(rows.map((r) => r.action)).toContain('Login');
  });

  it.each([
    ['wrong audience', { aud: 'someone-else.apps.googleusercontent.com' }, messages.googleTokenWrongAudience],
    ['wrong issuer', { iss: 'https://evil.example' }, messages.googleTokenWrongIssuer],
    ['expired', { expiresIn: Math.floor(Date.now() / 1000) - 60 }, messages.googleTokenExpired],
  ])('refuses a token with %s', async (_name, opts, message) => {
    const res = await signIn(await idp.mint({ email: 'admin@acme.example' }, opts));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: message });
  });

  it('refuses a token signed by another key', async () => {
    const res = await signIn(await idp.mint({ email: 'admin@acme.example' }, { key: idp.otherKey }));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(messages.googleTokenInvalid);
  });

  it('refuses an unverified e-mail', async () => {
    const res = await signIn(await idp.mint({ email: 'admin@acme.example', email_verified: false }));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(messages.googleEmailUnverified);
  });

  it('refuses an e-mail that nobody invited', async () => {
    const res = await signIn(await idp.mint({ email: 'stranger@nowhere.example' }));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(messages.notInvited);
  });

  it('answers 400 with the failing field for a malformed body', async () => {
    const res = await signIn(undefined);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.fields?.[0]?.path).toBe('body.token');
    const notJson = await server.request<Envelope<null>>('POST', '/api/customer/auth/google', {
      body: '{"token":',
    });
    expect(notJson.status).toBe(400);
  });

  it('refuses dev sign-in unless OUTPOST_ALLOW_DEV_LOGIN turns it on', async () => {
    const res = await server.request<Envelope<null>>('POST', '/api/customer/auth/dev', {
      body: { email: 'admin@acme.example' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(messages.devLoginDisabled);
    const config = await server.request<Envelope<{ googleClientId: string; devLogin: boolean }>>(
      'GET',
      '/api/config',
    );
    expect(config.body.data).toMatchObject({ googleClientId: idp.clientId, devLogin: false });
  });
});

describe('sessions, profile and tenants', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => server.close());

  it('requires a token on customer routes and rejects a forged one', async () => {
    expect((await server.request('GET', '/api/customer/auth/profile')).status).toBe(401);
    const forged = await server.request<Envelope<null>>('GET', '/api/customer/auth/profile', {
      token: 'abc.def.ghi',
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe(messages.tokenInvalid);
  });

  it('round-trips the profile and audits the change', async () => {
    const { token } = await server.devSignIn('tech@acme.example');
    const prefs = { emailAlerts: false, agentDowntime: true, weeklyReports: true, billing: false };
    const put = await server.request<Envelope<{ name: string; company: string }>>(
      'PUT',
      '/api/customer/auth/profile',
      {
        token,
        body: { name: 'Taylor Q. Chen', company: 'Acme', notification_prefs: prefs },
      },
    );
    expect(put.status).toBe(200);
    const get = await server.request<Envelope<Record<string, unknown>>>('GET', '/api/customer/auth/profile', {
      token,
    });
    expect(get.body.data).toMatchObject({
      name: 'Taylor Q. Chen',
      company: 'Acme',
      notification_prefs: prefs,
    });
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Update Profile'));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.oldValues).toContain('Taylor Chen');
  });

  it('rejects a bad profile body without changing anything', async () => {
    const { token } = await server.devSignIn('tech@acme.example');
    const res = await server.request<Envelope<null>>('PUT', '/api/customer/auth/profile', {
      token,
      body: { name: 'x'.repeat(500) },
    });
    expect(res.status).toBe(400);
    const get = await server.request<Envelope<{ name: string }>>('GET', '/api/customer/auth/profile', {
      token,
    });
    expect(get.body.data.name).not.toBe('x'.repeat(500));
  });

  it('lists the caller’s organisations and switches between them', async () => {
    const { token } = await server.devSignIn('admin@acme.example');
    const list = await server.request<Envelope<TenantOption[]>>('GET', '/api/customer/auth/tenants', {
      token,
    });
    expect(list.body.data.map((t) => [t.tenant_name, t.is_current])).toEqual([
      ['Acme Corp', true],
      ['Globex', false],
    ]);
    const globex = list.body.data.find((t) => t.tenant_name === 'Globex')!;
    const switched = await server.request<Envelope<SignInResult>>(
      'POST',
      '/api/customer/auth/switch-tenant',
      {
        token,
        body: { tenant_id: globex.id },
      },
    );
    expect(switched.status).toBe(200);
    expect(switched.body.data.user).toMatchObject({ tenant_name: 'Globex', role: 'user' });
    const after = await server.request<Envelope<TenantOption[]>>('GET', '/api/customer/auth/tenants', {
      token: switched.body.data.token,
    });
    expect(after.body.data.find((t) => t.is_current)?.tenant_name).toBe('Globex');
  });

  it('answers 404 when switching to an organisation the user does not belong to', async () => {
    const { token } = await server.devSignIn('tech@acme.example');
    const admin = await server.devSignIn('admin@globex.example');
    const res = await server.request<Envelope<null>>('POST', '/api/customer/auth/switch-tenant', {
      token,
      body: { tenant_id: admin.user.tenant_id },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(messages.tenantNotFound);
    const missing = await server.request('POST', '/api/customer/auth/switch-tenant', {
      token,
      body: { tenant_id: 99999 },
    });
    expect(missing.status).toBe(404);
  });

  it('stops a deleted user’s token at once', async () => {
    const { token, user } = await server.devSignIn('tech@acme.example');
    expect((await server.request('GET', '/api/customer/auth/profile', { token })).status).toBe(200);
    await server.database.db.delete(users).where(eq(users.id, user.id));
    const res = await server.request<Envelope<null>>('GET', '/api/customer/auth/profile', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(messages.tokenInvalid);
  });

  it('offers dev sign-in to loopback callers only when OUTPOST_ALLOW_DEV_LOGIN turns it on', async () => {
    const res = await server.request<Envelope<{ devLogin: boolean; devUsers: { email: string }[] }>>(
      'GET',
      '/api/config',
    );
    expect(res.body.data.devLogin).toBe(true);
    expect(res.body.data.devUsers.map((u) => u.email)).toContain('admin@acme.example');
    const { loadConfig } = await import('../../config');
    const base = { DATA_DIR: '/tmp/outpost-cfg', SESSION_SECRET: 'x'.repeat(40) };
    // Never inferred (SECURITY.md R2-7): without the flag it is off, with or without Google.
    expect(loadConfig({ ...base, HOST: '127.0.0.1' }).devLogin).toBe(false);
    expect(loadConfig({ ...base, GOOGLE_CLIENT_ID: 'abc' }).devLogin).toBe(false);
    expect(loadConfig({ ...base, HOST: '0.0.0.0', OUTPOST_ALLOW_DEV_LOGIN: '1' }).devLogin).toBe(true);
  });

  it('answers unknown /api routes with a 404 envelope and checks the database in /api/health', async () => {
    const res = await server.request<Envelope<null>>('GET', '/api/customer/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    const health = await server.request<Envelope<{ status: string; database: string }>>('GET', '/api/health');
    expect(health.body.data.status).toBe('ok');
    expect(health.body.data.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
    expect(health.body.data).toMatchObject({ checks: { database: 'up', redis: 'not configured' } });
  });
});
