import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { AppConfig, SessionUser } from '@outpost/contract/auth';
import { SSO_CALLBACK_PATH, ssoMessages } from '@outpost/contract/sso';
import type { SsoProviderBody, SsoProviderResponse } from '@outpost/contract/sso';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { browserSignIn, startOidcProvider } from '../../../test/oidc-provider';
import type { OidcTestProvider } from '../../../test/oidc-provider';
import { auditLogs, users } from '../../db/schema/index';

type Envelope<T> = { success: boolean; data: T; error?: string };

// docs/product/sign-in.md#single-sign-on: the authorization code flow with PKCE against a real
// provider (oidc-provider), the Microsoft Entra preset pointed at it, and an organisation's own
// provider with just-in-time membership and group-to-role mapping.
describe('single sign-on against oidc-provider', () => {
  let idp: OidcTestProvider;
  let server: TestServer;
  let adminToken: string;
  let siteIds: number[];

  const profile = (token: string) =>
    server.request<Envelope<SessionUser>>('GET', '/api/customer/auth/profile', { token });
  const putProvider = (body: Partial<SsoProviderBody>, token = adminToken) =>
    server.request<Envelope<SsoProviderResponse>>('PUT', '/api/customer/sso-provider', {
      token,
      body: {
        issuer: idp.issuer,
        client_id: 'outpost-acme',
        client_secret: 'acme-client-secret',
        allowed_domains: ['acme.example'],
        jit_enabled: true,
        default_role: 'user',
        groups_claim: 'groups',
        mappings: [
          { group: 'outpost-admins', role: 'tenant_admin', site_ids: null },
          { group: 'helpdesk-hq', role: 'user', site_ids: [siteIds[0]!] },
        ],
        ...body,
      },
    });
  const ssoSignIn = (login: string, email = login) =>
    browserSignIn(server.url, { provider: 'organization', email }, login);
  const memberOf = async (email: string) => {
    const [row] = await server.database.db.select().from(users).where(eq(users.email, email));
    return row;
  };

  beforeAll(async () => {
    idp = await startOidcProvider();
    server = await startTestServer({
      env: {
        ENTRA_ISSUER: idp.issuer,
        ENTRA_CLIENT_ID: 'outpost-entra',
        ENTRA_CLIENT_SECRET: 'entra-secret',
      },
    });
    const redirect_uris = [`${server.url}${SSO_CALLBACK_PATH}`];
    idp.serve([
      { client_id: 'outpost-entra', client_secret: 'entra-secret', redirect_uris },
      { client_id: 'outpost-acme', client_secret: 'acme-client-secret', redirect_uris },
    ]);
    ({ siteIds } = (await server.seedDemo())!);
    adminToken = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  it('offers the Microsoft button once Entra ID is configured', async () => {
    const res = await server.request<Envelope<AppConfig>>('GET', '/api/config');
    expect(res.body.data.sso).toEqual({ microsoft: true, oidcName: null });
  });

  it('signs an invited person in with the Microsoft preset (code flow, PKCE, nonce)', async () => {
    const invite = await server.request('POST', '/api/customer/users', {
      token: adminToken,
      body: { email: 'entra.person@acme.example', role: 'user' },
    });
    expect(invite.status).toBe(200);
    idp.accounts.set('entra-oid-1', { email: 'Entra.Person@acme.example', name: 'Entra Person' });
    const landed = await browserSignIn(server.url, { provider: 'microsoft' }, 'entra-oid-1');
    expect(landed.error).toBeUndefined();
    const me = await profile(landed.token!);
    expect(me.body.data).toMatchObject({ email: 'entra.person@acme.example', tenant_name: 'Acme Corp' });
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userEmail, 'entra.person@acme.example'), eq(auditLogs.action, 'Login')));
    expect(audit.map((a) => a.details)).toContain('Signed in with Microsoft');
  });

  it('refuses a person nobody invited through the Microsoft preset', async () => {
    idp.accounts.set('entra-oid-2', { email: 'stranger@elsewhere.example' });
    const landed = await browserSignIn(server.url, { provider: 'microsoft' }, 'entra-oid-2');
    expect(landed.token).toBeUndefined();
    expect(landed.error).toMatch(/not|invit/i);
  });

  it('stores the organisation provider with its secret sealed and never answered', async () => {
    const res = await putProvider({});
    expect(res.status).toBe(200);
    expect(res.body.data.provider).toMatchObject({ issuer: idp.issuer, has_client_secret: true });
    expect(JSON.stringify(res.body)).not.toContain('acme-client-secret');
    expect(res.body.data.redirect_uri).toBe(`${server.url}${SSO_CALLBACK_PATH}`);
    const read = await server.request<Envelope<SsoProviderResponse>>('GET', '/api/customer/sso-provider', {
      token: adminToken,
    });
    expect(JSON.stringify(read.body)).not.toContain('acme-client-secret');
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Create SSO Provider'));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.newValues).not.toContain('acme-client-secret');
  });

  it('keeps the stored secret when a change omits it, and audits the change', async () => {
    const res = await putProvider({ client_secret: undefined, jit_enabled: true });
    expect(res.status).toBe(200);
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Update SSO Provider'));
    expect(audit.length).toBeGreaterThan(0);
  });

  it('lets a person of an allowed domain join on first sign-in, with the role their groups map to', async () => {
    idp.accounts.set('helpdesk.anna@acme.example', {
      email: 'helpdesk.anna@acme.example',
      groups: ['helpdesk-hq'],
    });
    const landed = await ssoSignIn('helpdesk.anna@acme.example');
    expect(landed.error).toBeUndefined();
    const me = await profile(landed.token!);
    expect(me.body.data).toMatchObject({ tenant_name: 'Acme Corp', role: 'user' });
    const row = await memberOf('helpdesk.anna@acme.example');
    expect(row).toMatchObject({ role: 'user', siteAccessType: 'specific' });
    const joins = await server.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'SSO Join'));
    expect(joins.map((j) => j.resourceId)).toContain(String(row!.id));
  });

  it('maps the administrators group to the administrator role', async () => {
    idp.accounts.set('it.boss@acme.example', {
      email: 'it.boss@acme.example',
      groups: ['outpost-admins', 'other'],
    });
    const landed = await ssoSignIn('it.boss@acme.example');
    expect((await profile(landed.token!)).body.data.role).toBe('tenant_admin');
  });

  it('lowers the role of a person removed from the group at their next sign-in and ends their sessions', async () => {
    idp.accounts.set('ops.olga@acme.example', { email: 'ops.olga@acme.example', groups: ['outpost-admins'] });
    const first = await ssoSignIn('ops.olga@acme.example');
    expect((await profile(first.token!)).body.data.role).toBe('tenant_admin');
    idp.accounts.set('ops.olga@acme.example', { email: 'ops.olga@acme.example', groups: [] });
    const second = await ssoSignIn('ops.olga@acme.example');
    expect((await profile(second.token!)).body.data.role).toBe('user');
    expect((await profile(first.token!)).status).toBe(401);
    const changes = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'SSO Role Change'));
    expect(changes.some((c) => c.details?.includes('ops.olga@acme.example'))).toBe(true);
  });

  it('refuses an e-mail outside the allowed domains, whatever the provider says', async () => {
    idp.accounts.set('outsider', { email: 'outsider@elsewhere.example', groups: ['outpost-admins'] });
    const landed = await ssoSignIn('outsider', 'someone@acme.example');
    expect(landed).toEqual({ error: ssoMessages.domainNotAllowed('elsewhere.example') });
  });

  it('answers clearly when no organisation signs in with SSO for the domain', async () => {
    const landed = await ssoSignIn('x', 'person@unknown.example');
    expect(landed).toEqual({ error: ssoMessages.domainUnknown });
  });

  it('with just-in-time membership off, refuses a person who is not a member', async () => {
    expect((await putProvider({ client_secret: undefined, jit_enabled: false })).status).toBe(200);
    idp.accounts.set('late.larry@acme.example', {
      email: 'late.larry@acme.example',
      groups: ['helpdesk-hq'],
    });
    const landed = await ssoSignIn('late.larry@acme.example');
    expect(landed).toEqual({ error: ssoMessages.notMember });
    expect(await memberOf('late.larry@acme.example')).toBeUndefined();
    // an invitation still lets them in, and only into this organisation
    await server.request('POST', '/api/customer/users', {
      token: adminToken,
      body: { email: 'late.larry@acme.example' },
    });
    const invited = await ssoSignIn('late.larry@acme.example');
    expect((await profile(invited.token!)).body.data.tenant_name).toBe('Acme Corp');
  });

  it('refuses a domain another organisation already uses (409) and a site of another organisation (404)', async () => {
    const globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    const taken = await putProvider({ allowed_domains: ['acme.example'] }, globexAdmin);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(ssoMessages.domainTaken('acme.example'));
    const foreignSite = await putProvider(
      {
        allowed_domains: ['globex.example'],
        mappings: [{ group: 'g', role: 'user', site_ids: [siteIds[0]!] }],
      },
      globexAdmin,
    );
    expect(foreignSite.status).toBe(404);
  });

  it('refuses an issuer that does not answer discovery', async () => {
    const res = await putProvider({ issuer: 'http://127.0.0.1:9/nothing' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(ssoMessages.discoveryFailed('http://127.0.0.1:9/nothing'));
  });

  it('lets only administrators of all sites read or change the provider', async () => {
    const tech = (await server.devSignIn('tech@acme.example')).token;
    expect((await server.request('GET', '/api/customer/sso-provider', { token: tech })).status).toBe(403);
  });

  it('removes the provider and audits it', async () => {
    const res = await server.request('DELETE', '/api/customer/sso-provider', { token: adminToken });
    expect(res.status).toBe(200);
    const landed = await ssoSignIn('helpdesk.anna@acme.example');
    expect(landed).toEqual({ error: ssoMessages.domainUnknown });
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Delete SSO Provider'));
    expect(audit).toHaveLength(1);
  });
});
