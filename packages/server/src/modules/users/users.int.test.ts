import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { adminMessages, messages } from '@outpost/contract/messages';
import type { DeleteUsersResponse, User, UserListResponse } from '@outpost/contract/users';
import type { SessionUser } from '@outpost/contract/auth';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, users } from '../../db/schema/index';
import { addMember, createTenant } from '../tenants/tenants.service';
import { DEMO } from '../demo/demo.seed';
import { updateUser } from './users.queries';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('users API', () => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  let tech: string;
  let globexAdmin: string;
  let acme: number;
  let siteIds: number[];

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<Envelope<T>>(method, path, { token, body });

  /** The newest audit entry of the tenant for this action and resource. */
  async function lastAudit(action: string, resourceId: number | string) {
    const [row] = await server.database.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.tenantId, acme),
          eq(auditLogs.action, action),
          eq(auditLogs.resourceId, String(resourceId)),
        ),
      )
      .orderBy(desc(auditLogs.id))
      .limit(1);
    return row;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    siteIds = demo.siteIds;
    const signedIn = await server.devSignIn(DEMO.adminEmail);
    admin = signedIn.token;
    adminId = signedIn.user.id;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the tenant users with search, role filter and pagination; a regular user is refused', async () => {
    const all = await call<UserListResponse>('GET', '/api/customer/users');
    expect(all.status).toBe(200);
    expect(all.body.data.data.map((u) => u.email).sort()).toEqual([DEMO.adminEmail, DEMO.techEmail]);
    expect(all.body.data.pagination).toMatchObject({ page: 1, limit: 20, total: 2, totalPages: 1 });
    const first = all.body.data.data.find((u) => u.email === DEMO.adminEmail)!;
    expect(first).toMatchObject({ role: 'tenant_admin', site_access_type: 'all', assigned_site_ids: '' });

    const byName = await call<UserListResponse>('GET', '/api/customer/users?search=taylor');
    expect(byName.body.data.data.map((u) => u.email)).toEqual([DEMO.techEmail]);
    const byEmail = await call<UserListResponse>('GET', '/api/customer/users?search=ADMIN%40acme');
    expect(byEmail.body.data.data.map((u) => u.email)).toEqual([DEMO.adminEmail]);
    const admins = await call<UserListResponse>('GET', '/api/customer/users?role=tenant_admin');
    expect(admins.body.data.data.map((u) => u.email)).toEqual([DEMO.adminEmail]);
    const paged = await call<UserListResponse>('GET', '/api/customer/users?limit=1&page=2');
    expect(paged.body.data.data).toHaveLength(1);
    expect(paged.body.data.pagination).toMatchObject({ total: 2, totalPages: 2 });

    const refused = await call('GET', '/api/customer/users', undefined, tech);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(messages.adminOnly);
  });

  it("validates with the spec's messages, word for word", async () => {
    const noEmail = await call('POST', '/api/customer/users', { name: 'X' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error).toBe('Email is required');
    const blank = await call('POST', '/api/customer/users', { email: '  ' });
    expect(blank.body.error).toBe('Email is required');
    const noSites = await call('POST', '/api/customer/users', {
      email: 'nosites@acme.example',
      site_access_type: 'specific',
      site_ids: [],
    });
    expect(noSites.status).toBe(400);
    expect(noSites.body.error).toBe('Please select at least one site or choose "All Sites"');
    const badEmail = await call('POST', '/api/customer/users', { email: 'not-an-email' });
    expect(badEmail.body.error).toBe(adminMessages.emailInvalid);
  });

  it('refuses sites of another tenant and duplicate e-mails (case-insensitive)', async () => {
    const globexSite = await call<{ id: number }>(
      'POST',
      '/api/customer/sites',
      { site_name: 'Globex HQ', site_code: 'GHQ' },
      globexAdmin,
    );
    expect(globexSite.status).toBe(200);
    const foreign = await call('POST', '/api/customer/users', {
      email: 'foreign@acme.example',
      site_access_type: 'specific',
      site_ids: [globexSite.body.data.id],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe(adminMessages.sitesNotInTenant([globexSite.body.data.id]));

    const dup = await call('POST', '/api/customer/users', { email: 'TECH@acme.example' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe(adminMessages.emailTaken(DEMO.techEmail));
  });

  it('creates a user with specific sites who can sign in at once and sees only those sites; audits it', async () => {
    const created = await call<User>('POST', '/api/customer/users', {
      email: ' Dana@Acme.example ',
      name: 'Dana Field',
      role: 'user',
      site_access_type: 'specific',
      site_ids: [siteIds[1], siteIds[0], siteIds[1]],
    });
    expect(created.status).toBe(200);
    const sorted = [siteIds[0]!, siteIds[1]!].sort((a, b) => a - b);
    expect(created.body.data).toMatchObject({
      email: 'dana@acme.example',
      name: 'Dana Field',
      role: 'user',
      site_access_type: 'specific',
      assigned_site_ids: sorted.join(','),
    });
    const entry = await lastAudit('Create User', created.body.data.id);
    expect(entry).toMatchObject({ userId: adminId, userEmail: DEMO.adminEmail, userRole: 'tenant_admin' });
    expect(entry?.oldValues).toBeNull();
    expect(JSON.parse(entry!.newValues!)).toEqual({
      email: 'dana@acme.example',
      name: 'Dana Field',
      role: 'user',
      site_access_type: 'specific',
      site_ids: sorted,
    });

    const dana = await server.devSignIn('dana@acme.example');
    expect(dana.user).toMatchObject<Partial<SessionUser>>({ tenant_id: acme, site_access_type: 'specific' });
    const sites = await call<{ data: { id: number }[] }>('GET', '/api/customer/sites', undefined, dana.token);
    expect(sites.status).toBe(200);
    expect(sites.body.data.data.map((s) => s.id).sort((a, b) => a - b)).toEqual(sorted);
  });

  it('the same e-mail may be a member of another tenant (a membership per tenant)', async () => {
    const res = await call<User>('POST', '/api/customer/users', { email: 'dana@acme.example' }, globexAdmin);
    expect(res.status).toBe(200);
    const dana = await server.devSignIn('dana@acme.example');
    const tenants = await call<{ id: number }[]>('GET', '/api/customer/auth/tenants', undefined, dana.token);
    expect(tenants.body.data).toHaveLength(2);
  });

  it('updates a user, records old and new values, and ends their sessions so the change applies at once', async () => {
    const created = await call<User>('POST', '/api/customer/users', {
      email: 'eli@acme.example',
      name: 'Eli',
    });
    const id = created.body.data.id;
    const eli = await server.devSignIn('eli@acme.example');
    expect((await call('GET', '/api/customer/users', undefined, eli.token)).status).toBe(403);
    const unchanged = await call('PUT', `/api/customer/users/${id}`, { name: 'Eli' });
    expect(unchanged.status).toBe(200);
    // A change that touches neither role nor sites leaves the session alone.
    expect((await call('GET', '/api/customer/auth/profile', undefined, eli.token)).status).toBe(200);

    const updated = await call<User>('PUT', `/api/customer/users/${id}`, {
      email: 'eli@acme.example',
      name: 'Eli Stone',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [siteIds[2]],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'Eli Stone',
      role: 'tenant_admin',
      site_access_type: 'specific',
      assigned_site_ids: String(siteIds[2]),
    });
    const entry = await lastAudit('Update User', id);
    expect(JSON.parse(entry!.oldValues!)).toEqual({
      email: 'eli@acme.example',
      name: 'Eli',
      role: 'user',
      site_access_type: 'all',
      site_ids: [],
    });
    expect(JSON.parse(entry!.newValues!)).toEqual({
      email: 'eli@acme.example',
      name: 'Eli Stone',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [siteIds[2]],
    });
    // SECURITY.md R2-1 "Sessions": the role and site change ended Eli's session; a new one has both.
    expect((await call('GET', '/api/customer/auth/profile', undefined, eli.token)).status).toBe(401);
    const eliAgain = await server.devSignIn('eli@acme.example');
    expect((await call('GET', '/api/customer/users', undefined, eliAgain.token)).status).toBe(200);

    // 'specific' without sites is refused on update too; 'all' drops the assignments.
    const noSites = await call('PUT', `/api/customer/users/${id}`, {
      site_access_type: 'specific',
      site_ids: [],
    });
    expect(noSites.body.error).toBe(adminMessages.selectSiteOrAll);
    const all = await call<User>('PUT', `/api/customer/users/${id}`, { site_access_type: 'all' });
    expect(all.body.data).toMatchObject({ site_access_type: 'all', assigned_site_ids: '' });

    // A site-limited administrator gives only their own sites.
    await call<User>('PUT', `/api/customer/users/${id}`, {
      site_access_type: 'specific',
      site_ids: [siteIds[2]],
    });
    const limited = (await server.devSignIn('eli@acme.example')).token;
    const grantAll = await call('POST', '/api/customer/users', { email: 'x1@acme.example' }, limited);
    expect(grantAll.status).toBe(403);
    expect(grantAll.body.error).toBe(adminMessages.siteAccessBeyondOwn);
    const grantOther = await call(
      'POST',
      '/api/customer/users',
      { email: 'x2@acme.example', site_access_type: 'specific', site_ids: [siteIds[0]] },
      limited,
    );
    expect(grantOther.status).toBe(400);
    // SECURITY.md R2-9: members beyond the caller's sites are not found (like another site's device).
    const editAdmin = await call('PUT', `/api/customer/users/${adminId}`, { name: 'Nope' }, limited);
    expect(editAdmin.status).toBe(404);

    const missing = await call('PUT', '/api/customer/users/999999', { name: 'Nobody' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(adminMessages.userNotFound);
  });

  it('an e-mail change to a taken address is refused; a signed-in member keeps their address', async () => {
    const list = await call<UserListResponse>('GET', '/api/customer/users?search=eli%40');
    const eli = list.body.data.data[0]!;
    expect(eli.status).toBe('active');
    const bound = await call('PUT', `/api/customer/users/${eli.id}`, { email: 'eli.new@acme.example' });
    expect(bound.status).toBe(409);
    expect(bound.body.error).toBe(adminMessages.emailBound);

    const invited = await call<User>('POST', '/api/customer/users', { email: 'typo@acme.exmaple' });
    expect(invited.body.data.status).toBe('invited');
    const id = invited.body.data.id;
    const fixed = await call<User>('PUT', `/api/customer/users/${id}`, { email: 'typo@acme.example' });
    expect(fixed.status).toBe(200);
    const res = await call('PUT', `/api/customer/users/${id}`, { email: DEMO.techEmail });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(adminMessages.emailTaken(DEMO.techEmail));
    // Taken between the check and the update (a concurrent change): the query reports it.
    expect(await updateUser(server.database.db, { tenantId: acme }, id, { email: DEMO.techEmail })).toBe(
      false,
    );
  });

  it('deletes one user and several, with an audit entry each; unknown ids delete nothing', async () => {
    const a = await call<User>('POST', '/api/customer/users', { email: 'del-a@acme.example', name: 'A' });
    const b = await call<User>('POST', '/api/customer/users', { email: 'del-b@acme.example' });
    const c = await call<User>('POST', '/api/customer/users', { email: 'del-c@acme.example' });
    const aToken = (await server.devSignIn('del-a@acme.example')).token;

    const one = await call<DeleteUsersResponse>('DELETE', `/api/customer/users/${a.body.data.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ deleted: 1, user_ids: [a.body.data.id], message: 'Deleted 1 user' });
    const entry = await lastAudit('Delete User', a.body.data.id);
    expect(JSON.parse(entry!.oldValues!)).toMatchObject({
      email: 'del-a@acme.example',
      name: 'A',
      role: 'user',
    });
    expect(entry?.newValues).toBeNull();
    // The deleted member's session ends at once.
    expect((await call('GET', '/api/customer/auth/profile', undefined, aToken)).status).toBe(401);

    const partly = await call('DELETE', '/api/customer/users', { user_ids: [b.body.data.id, 999999] });
    expect(partly.status).toBe(404);
    expect(partly.body.error).toBe(adminMessages.usersNotFound([999999]));
    const many = await call<DeleteUsersResponse>('DELETE', '/api/customer/users', {
      user_ids: [b.body.data.id, c.body.data.id],
    });
    expect(many.body.data.deleted).toBe(2);
    expect(await lastAudit('Delete User', b.body.data.id)).toBeDefined();
    expect(await lastAudit('Delete User', c.body.data.id)).toBeDefined();

    const empty = await call('DELETE', '/api/customer/users', { user_ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe(adminMessages.noSelection);
  });

  it('the last administrator can neither delete nor demote themselves', async () => {
    const g = await server.devSignIn('admin@globex.example');
    const del = await call('DELETE', `/api/customer/users/${g.user.id}`, undefined, g.token);
    expect(del.status).toBe(409);
    expect(del.body.error).toBe(adminMessages.lastAdminDelete);
    const bulk = await call('DELETE', '/api/customer/users', { user_ids: [g.user.id] }, g.token);
    expect(bulk.body.error).toBe(adminMessages.lastAdminDelete);
    const demote = await call('PUT', `/api/customer/users/${g.user.id}`, { role: 'user' }, g.token);
    expect(demote.status).toBe(409);
    expect(demote.body.error).toBe(adminMessages.lastAdminDemote);

    // With a second administrator, the first may step down.
    const second = await call<User>(
      'POST',
      '/api/customer/users',
      { email: 'second@globex.example', role: 'tenant_admin' },
      g.token,
    );
    const stepDown = await call<User>('PUT', `/api/customer/users/${g.user.id}`, { role: 'user' }, g.token);
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.data.role).toBe('user');
    // Now the second is the last one.
    const s = await server.devSignIn('second@globex.example');
    const last = await call('DELETE', `/api/customer/users/${second.body.data.id}`, undefined, s.token);
    expect(last.body.error).toBe(adminMessages.lastAdminDelete);
  });

  it('two administrators demoting each other at once: one succeeds, the tenant keeps an administrator', async () => {
    const { tenant } = await createTenant(server.database.db, {
      name: 'Race Co',
      adminEmail: 'p@race.example',
    });
    const q = await addMember(server.database.db, {
      tenantId: tenant.id,
      email: 'q@race.example',
      role: 'tenant_admin',
    });
    for (let round = 0; round < 3; round += 1) {
      // a demotion ends the member's sessions (R2-1): both sign in afresh each round
      const p = await server.devSignIn('p@race.example');
      const qToken = (await server.devSignIn('q@race.example')).token;
      const [a, b] = await Promise.all([
        call('PUT', `/api/customer/users/${q.id}`, { role: 'user' }, p.token),
        call('PUT', `/api/customer/users/${p.user.id}`, { role: 'user' }, qToken),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(200);
      // the loser is refused as the last-admin rule (409), or, if its session was read after the
      // winner's change, as no longer an administrator (403) or with its session ended (401)
      expect([401, 403, 409]).toContain(statuses[1]);
      const admins = await server.database.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenant.id), eq(users.role, 'tenant_admin')));
      expect(admins).toHaveLength(1);
      // make both administrators again for the next round
      const winner = admins[0]!.id;
      const winnerToken = winner === p.user.id ? p.token : qToken;
      const other = winner === p.user.id ? q.id : p.user.id;
      expect(
        (await call('PUT', `/api/customer/users/${other}`, { role: 'tenant_admin' }, winnerToken)).status,
      ).toBe(200);
    }
  });
});
