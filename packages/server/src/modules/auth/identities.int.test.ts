import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SignInResult, TenantOption } from '@outpost/contract/auth';
import { adminMessages, messages } from '@outpost/contract/messages';
import type { User, UserListResponse } from '@outpost/contract/users';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { startOidcFixture } from '../../../test/oidc-fixture';
import { auditLogs, identities, users } from '../../db/schema/index';
import { addMember, createTenant } from '../tenants/tenants.service';
import { EMAIL_ISSUER } from './identities.queries';
import { createSignInLink } from './auth.service';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// SECURITY.md R2-1: a sign-in identity is the provider's issuer and subject, which no tenant can
// edit; memberships are bound to it at the person's first sign-in and never move. These tests run
// on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
describe('identities: no tenant can make itself someone else', () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startOidcFixture>>;
  let tenantA: number;
  let tenantB: number;

  beforeAll(async () => {
    idp = await startOidcFixture();
    server = await startTestServer({ env: idp.env });
    tenantA = (await createTenant(server.database.db, { name: 'Alpha', adminEmail: 'alice@a.example' }))
      .tenant.id;
    tenantB = (await createTenant(server.database.db, { name: 'Beta', adminEmail: 'bob@b.example' })).tenant
      .id;
    // Alice is also invited to B, where Bob administers.
    await addMember(server.database.db, { tenantId: tenantB, email: 'alice@a.example', role: 'user' });
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  const google = async (claims: Record<string, unknown>) =>
    server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/google', {
      body: { token: await idp.mint(claims) },
    });
  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const tenantsOf = async (token: string) =>
    (await call<TenantOption[]>('GET', '/api/customer/auth/tenants', token)).body.data.map(
      (t) => t.tenant_name,
    );

  it('the takeover sequence answers 404/403/409 at every step that would grant access', async () => {
    const alice = await google({ email: 'alice@a.example', sub: 'google-alice' });
    expect(alice.status).toBe(200);
    expect(await tenantsOf(alice.body.data.token)).toEqual(['Alpha', 'Beta']);
    const bob = (await google({ email: 'bob@b.example', sub: 'google-bob' })).body.data;
    expect(await tenantsOf(bob.token)).toEqual(['Beta']);

    // Bob removes B's row for Alice (his right) …
    const list = await call<UserListResponse>('GET', '/api/customer/users?search=alice', bob.token);
    const aliceInB = list.body.data.data.find((u) => u.email === 'alice@a.example')!;
    expect((await call('DELETE', `/api/customer/users/${aliceInB.id}`, bob.token)).status).toBe(200);
    // … and tries to take her address: his membership is bound to his identity.
    const rename = await call('PUT', `/api/customer/users/${bob.user.id}`, bob.token, {
      email: 'alice@a.example',
    });
    expect(rename.status).toBe(409);
    expect(rename.body.error).toBe(adminMessages.emailBound);
    // He invites her address in B: a new invitation, bound only by whoever proves that address.
    const invite = await call<User>('POST', '/api/customer/users', bob.token, { email: 'alice@a.example' });
    expect(invite.body.data.status).toBe('invited');
    expect(await tenantsOf(bob.token)).toEqual(['Beta']);
    const toA = await call('POST', '/api/customer/auth/switch-tenant', bob.token, { tenant_id: tenantA });
    expect(toA.status).toBe(404);
    expect(toA.body.error).toBe(messages.tenantNotFound);

    // Nothing in A was done as Alice by anyone but Alice.
    const asAlice = await server.database.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(eq(auditLogs.tenantId, tenantA));
    expect(asAlice.map((r) => r.action)).toEqual(['Login']);
  });

  it('an invitation is bound only by a verified, matching e-mail, and then never moves', async () => {
    await addMember(server.database.db, { tenantId: tenantA, email: 'carol@c.example', role: 'user' });
    // unverified: refused before anything is bound
    const unverified = await google({ email: 'carol@c.example', sub: 'mallory', email_verified: false });
    expect(unverified.status).toBe(401);
    expect(unverified.body.error).toBe(messages.googleEmailUnverified);
    // a different e-mail: not invited
    const other = await google({ email: 'carol@evil.example', sub: 'mallory' });
    expect(other.status).toBe(401);
    expect(other.body.error).toBe(messages.notInvited);
    // Carol herself binds it
    const carol = await google({ email: 'carol@c.example', sub: 'google-carol' });
    expect(carol.status).toBe(200);
    expect(carol.body.data.user.tenant_name).toBe('Alpha');
    // Someone else later asserting the same (verified) address at another subject gets nothing of
    // Carol's: her membership is hers.
    const later = await google({ email: 'carol@c.example', sub: 'someone-else' });
    expect(later.status).toBe(401);
    expect(later.body.error).toBe(messages.notInvited);
    // Carol's address at her provider may change; her memberships follow her subject.
    const renamed = await google({ email: 'carol.new@c.example', sub: 'google-carol' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.user.tenant_name).toBe('Alpha');
  });

  it('the switcher lists only the caller’s own memberships after any edit an administrator can make', async () => {
    const dave = await addMember(server.database.db, {
      tenantId: tenantB,
      email: 'dave@b.example',
      role: 'tenant_admin',
    });
    const daveToken = (await google({ email: 'dave@b.example', sub: 'google-dave' })).body.data.token;
    const bob = (await google({ email: 'bob@b.example', sub: 'google-bob' })).body.data;
    // Bob edits Dave every way an administrator can (his e-mail is fixed; name, role and sites change).
    expect(
      (await call('PUT', `/api/customer/users/${dave.id}`, bob.token, { email: 'alice@a.example' })).status,
    ).toBe(409);
    expect(
      (await call('PUT', `/api/customer/users/${dave.id}`, bob.token, { name: 'Alice', role: 'user' }))
        .status,
    ).toBe(200);
    // Dave's role changed: his session ended; signing in again shows only his own tenant.
    expect((await call('GET', '/api/customer/auth/tenants', daveToken)).status).toBe(401);
    const again = (await google({ email: 'dave@b.example', sub: 'google-dave' })).body.data.token;
    expect(await tenantsOf(again)).toEqual(['Beta']);
    expect(await tenantsOf(bob.token)).toEqual(['Beta']);
  });

  it('a membership migrated by e-mail moves to the provider subject at the next sign-in', async () => {
    const { tenant, admin } = await createTenant(server.database.db, {
      name: 'Gamma',
      adminEmail: 'erin@g.example',
    });
    // What migration 0012 made of an existing row: an identity keyed by its e-mail, bound.
    const [legacy] = await server.database.db
      .insert(identities)
      .values({ issuer: EMAIL_ISSUER, subject: 'erin@g.example', email: 'erin@g.example' })
      .returning();
    await server.database.db.update(users).set({ identityId: legacy!.id }).where(eq(users.id, admin.id));
    const erin = await google({ email: 'erin@g.example', sub: 'google-erin' });
    expect(erin.status).toBe(200);
    expect(erin.body.data.user).toMatchObject({ id: admin.id, tenant_id: tenant.id });
    const [moved] = await server.database.db.select().from(identities).where(eq(identities.id, legacy!.id));
    expect(moved).toMatchObject({ issuer: server.config.google.issuers[0], subject: 'google-erin' });
  });
});

// SECURITY.md R2-1 "Sessions": a token is only as good as its server-side session.
describe('server-side sessions', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(() => server.close());

  const profile = (token: string) => server.request('GET', '/api/customer/auth/profile', { token });

  it('sign-out revokes the session on the server: a copied token stops working', async () => {
    const a = await server.devSignIn('admin@acme.example');
    const b = await server.devSignIn('admin@acme.example');
    const out = await server.request<Envelope<{ signed_out: boolean }>>('POST', '/api/customer/auth/logout', {
      token: a.token,
    });
    expect(out.status).toBe(200);
    expect((await profile(a.token)).status).toBe(401);
    // other sessions of the same person are untouched
    expect((await profile(b.token)).status).toBe(200);
  });

  it('a one-time sign-in link works once, and only for what it names', async () => {
    const secret = await createSignInLink(server.database.db, 'Admin@Acme.example');
    const use = () =>
      server.request<Envelope<SignInResult>>('POST', '/api/customer/auth/link', { body: { token: secret } });
    const first = await use();
    expect(first.status).toBe(200);
    expect(first.body.data.user.email).toBe('admin@acme.example');
    const again = await use();
    expect(again.status).toBe(401);
    expect(again.body.error).toBe(messages.signInLinkInvalid);
    const forged = await server.request<Envelope<null>>('POST', '/api/customer/auth/link', {
      body: { token: 'x'.repeat(43) },
    });
    expect(forged.status).toBe(401);
    const stranger = await createSignInLink(server.database.db, 'nobody@nowhere.example');
    const refused = await server.request<Envelope<null>>('POST', '/api/customer/auth/link', {
      body: { token: stranger },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(messages.notInvited);
  });

  it('switching organisation ends the old session and starts one for the new membership', async () => {
    const me = await server.devSignIn('admin@acme.example');
    const tenants = await server.request<Envelope<TenantOption[]>>('GET', '/api/customer/auth/tenants', {
      token: me.token,
    });
    // the demo's Acme administrator is also a member of Globex
    const other = tenants.body.data.find((t) => !t.is_current)!;
    expect(other.tenant_name).toBe('Globex');
    const switched = await server.request<Envelope<SignInResult>>(
      'POST',
      '/api/customer/auth/switch-tenant',
      {
        token: me.token,
        body: { tenant_id: other.id },
      },
    );
    expect(switched.status).toBe(200);
    expect((await profile(me.token)).status).toBe(401);
    expect((await profile(switched.body.data.token)).status).toBe(200);
  });
});
