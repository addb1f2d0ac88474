import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { apiTokenMessages } from '@outpost/contract/api-tokens';
import type { ApiToken, CreatedApiToken } from '@outpost/contract/api-tokens';
import type { SignInResult } from '@outpost/contract/auth';
import { PORTAL_CLOSE } from '@outpost/contract/live';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { connectPortalSocket } from '../../../test/support/live';
import { apiTokens, auditLogs, devices } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';
import { hashSecret } from '../agents/agent-secrets';

// API tokens (docs/product/administration.md#api-tokens): shown once, stored hashed, scoped,
// site-limited, expiring, revocable at once on REST and the portal socket, audited as the token.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('API tokens', () => {
  let server: TestServer;
  let admin: SignInResult;
  let hq: number, london: number;

  const call = <T>(method: string, path: string, token?: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  const create = async (body: Record<string, unknown>) => {
    const res = await call<CreatedApiToken>('POST', '/api/customer/api-tokens', admin.token, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { API_TOKEN_PER_MINUTE: '5', PORTAL_SESSION_CHECK_MS: '30000' } });
    const demo = (await server.seedDemo())!;
    [hq, london] = demo.siteIds as [number, number];
    admin = await server.devSignIn(DEMO.adminEmail);
    await server.database.db.insert(devices).values(
      [
        ['hq-token-pc', hq],
        ['london-token-pc', london],
      ].map(([hostname, siteId]) => ({
        tenantId: demo.acmeTenantId,
        siteId: siteId as number,
        hostname: hostname as string,
        deviceGuid: crypto.randomUUID(),
        secretHash: hashSecret(`secret-${hostname}`),
        status: 'offline' as const,
        osType: 'windows' as const,
      })),
    );
  });
  afterAll(async () => server?.close());

  it('shows the secret once, stores only its hash, and lists the token without it', async () => {
    const created = await create({ name: 'CI reader', scopes: ['devices:read'] });
    expect(created.token).toMatch(/^opt_api_[\w-]{40,}$/);
    expect(created.token.startsWith(created.token_prefix)).toBe(true);
    const [row] = await server.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const list = await call<ApiToken[]>('GET', '/api/customer/api-tokens', admin.token);
    const listed = list.body.data.find((t) => t.id === created.id)!;
    expect(listed).toMatchObject({ name: 'CI reader', state: 'active', scopes: ['devices:read'] });
    expect(JSON.stringify(list.body)).not.toContain(created.token);
  });

  it('records the last use and the address it came from', async () => {
    const { token, id } = await create({ name: 'Last use', scopes: ['devices:read'] });
    expect((await call('GET', '/api/customer/devices', token)).status).toBe(200);
    const listed = (await call<ApiToken[]>('GET', '/api/customer/api-tokens', admin.token)).body.data;
    const t = listed.find((x) => x.id === id)!;
    expect(t.last_used_at).not.toBeNull();
    expect(t.last_used_ip).toBe('127.0.0.1');
  });

  it('refuses bad input with the contract words', async () => {
    const noScopes = await call('POST', '/api/customer/api-tokens', admin.token, { name: 'x', scopes: [] });
    expect(noScopes.status).toBe(400);
    expect(noScopes.body.error).toContain(apiTokenMessages.scopesRequired);
    const past = await call('POST', '/api/customer/api-tokens', admin.token, {
      name: 'x',
      scopes: ['devices:read'],
      expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.error).toBe(apiTokenMessages.expiresInPast);
  });

  it('stops working once expired', async () => {
    const { token, id } = await create({
      name: 'Short lived',
      scopes: ['devices:read'],
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await call('GET', '/api/customer/devices', token)).status).toBe(200);
    await server.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, id));
    const res = await call('GET', '/api/customer/devices', token);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'INVALID_API_TOKEN', error: apiTokenMessages.invalid });
    const listed = (await call<ApiToken[]>('GET', '/api/customer/api-tokens', admin.token)).body.data;
    expect(listed.find((t) => t.id === id)?.state).toBe('expired');
  });

  it('a revoked token stops at once on REST and its open portal socket closes', async () => {
    const { token, id, created_by_id } = await create({ name: 'Revoke me', scopes: ['devices:read'] });
    expect((await call('GET', '/api/customer/devices', token)).status).toBe(200);
    const socket = connectPortalSocket(server.url, {
      tenantId: admin.user.tenant_id,
      userId: created_by_id!,
      token,
    });
    expect((await socket.waitFor('connection_status')).payload).toMatchObject({ status: 'connected' });
    const revoked = await call<ApiToken>('DELETE', `/api/customer/api-tokens/${id}`, admin.token);
    expect(revoked.body.data.state).toBe('revoked');
    expect((await call('GET', '/api/customer/devices', token)).status).toBe(401);
    // the periodic check is 30 s away: only the revocation can close it this soon
    expect(await socket.waitForClose()).toMatchObject({ code: PORTAL_CLOSE.invalidToken });
    const again = connectPortalSocket(server.url, {
      tenantId: admin.user.tenant_id,
      userId: created_by_id!,
      token,
    });
    expect(await again.waitForClose()).toMatchObject({ code: PORTAL_CLOSE.invalidToken });
  });

  it('the portal socket refuses a token that may not read devices', async () => {
    const { token, created_by_id } = await create({ name: 'No devices', scopes: ['audit:read'] });
    const socket = connectPortalSocket(server.url, {
      tenantId: admin.user.tenant_id,
      userId: created_by_id!,
      token,
    });
    expect(await socket.waitForClose()).toMatchObject({ code: PORTAL_CLOSE.invalidToken });
  });

  it('a site-limited token sees only its sites, as a site-limited user does', async () => {
    const { token } = await create({
      name: 'London only',
      scopes: ['devices:read', 'sites:read'],
      site_ids: [london],
    });
    const list = await call<unknown>('GET', '/api/customer/devices?limit=100', token);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(JSON.stringify(list.body.data)).toContain('london-token-pc');
    expect(JSON.stringify(list.body.data)).not.toContain('hq-token-pc');
    const [hqDevice] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.hostname, 'hq-token-pc'));
    expect((await call('GET', `/api/customer/devices/${hqDevice!.id}`, token)).status).toBe(404);
    const sitesList = (await call<{ data: { id: number }[] }>('GET', '/api/customer/sites', token)).body.data;
    expect(sitesList.data.map((s) => s.id)).toEqual([london]);
    const unknownSite = await call('POST', '/api/customer/api-tokens', admin.token, {
      name: 'x',
      scopes: ['devices:read'],
      site_ids: [999_999],
    });
    expect(unknownSite.status).toBe(400);
  });

  it('audits every change made with a token as the token and who created it', async () => {
    const { token, id } = await create({ name: 'Tagger', scopes: ['devices:write'] });
    const res = await call<{ id: number }>('POST', '/api/customer/tags', token, { name: 'Made by a token' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [entry] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceType, 'tag'), eq(auditLogs.resourceId, String(res.body.data.id))))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(entry?.userName).toBe(`API token "Tagger" (created by ${admin.user.name ?? admin.user.email})`);
    expect(entry?.userEmail).toBe(admin.user.email);
    const [creation] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceType, 'api_token'), eq(auditLogs.resourceId, String(id))));
    expect(creation?.action).toBe('Create API Token');
  });

  it('limits each token to its requests per minute (429), without touching other tokens', async () => {
    const busy = await create({ name: 'Busy', scopes: ['devices:read'] });
    const calm = await create({ name: 'Calm', scopes: ['devices:read'] });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call('GET', '/api/customer/devices', busy.token)).status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await call('GET', '/api/customer/devices', busy.token);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'TOKEN_RATE_LIMITED', error: apiTokenMessages.rateLimited });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await call('GET', '/api/customer/devices', calm.token)).status).toBe(200);
    // people signed in to the portal are not counted against any token
    for (let i = 0; i < 6; i++) {
      expect((await call('GET', '/api/customer/devices', admin.token)).status).toBe(200);
    }
  });

  it('stops working when its creator is no longer an administrator', async () => {
    // the tech user is made an administrator, creates a token, and is made a regular user again
    const { users } = await import('../../db/schema/index');
    const tech = await server.devSignIn(DEMO.techEmail);
    await server.database.db.update(users).set({ role: 'tenant_admin' }).where(eq(users.id, tech.user.id));
    const res = await call<CreatedApiToken>('POST', '/api/customer/api-tokens', tech.token, {
      name: 'Tech token',
      scopes: ['devices:read'],
    });
    expect(res.status).toBe(200);
    expect((await call('GET', '/api/customer/devices', res.body.data.token)).status).toBe(200);
    await server.database.db.update(users).set({ role: 'user' }).where(eq(users.id, tech.user.id));
    expect((await call('GET', '/api/customer/devices', res.body.data.token)).status).toBe(401);
  });
});
