import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { EnrollmentToken } from '@outpost/contract/agents';
import { messages } from '@outpost/contract/messages';
import type { EnrollFacts, EnrollResult } from '@outpost/contract/agent-protocol';
import { accessMessages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, devices, enrollmentTokens, sites, tenants } from '../../db/schema/index';
import { connectAgentSocket, createEnrollmentToken, enroll, facts } from '../../../test/support/live';
import { addMember } from '../tenants/tenants.service';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('enrolment tokens and POST /api/agent/enroll', () => {
  let server: TestServer;
  let request: TestServer['request'];
  let admin: { token: string; tenantId: number };
  let techToken: string;

  /** An enrolment that presents the identity the agent already holds (a kept configuration). */
  const reEnroll = (
    token: string,
    f: EnrollFacts,
    identity: Pick<EnrollResult, 'device_guid' | 'agent_secret'>,
  ) =>
    request<Envelope<EnrollResult>>('POST', '/api/agent/enroll', { body: { token, facts: f, ...identity } });

  beforeAll(async () => {
    server = await startTestServer();
    request = server.request.bind(server);
    await server.seedDemo();
    const a = await server.devSignIn('admin@acme.example');
    admin = { token: a.token, tenantId: a.user.tenant_id };
    techToken = (await server.devSignIn('tech@acme.example')).token;
  });
  afterAll(async () => server?.close());

  it('creates a token shown once, lists it by prefix only, and audits it', async () => {
    const [site] = await server.database.db.select().from(sites).where(eq(sites.tenantId, admin.tenantId));
    const created = await createEnrollmentToken(request, admin.token, {
      name: 'Office rollout',
      site_id: site!.id,
    });
    expect(created.token).toMatch(/^opt_/);
    expect(created.enroll_command).toContain(`--token ${created.token}`);
    expect(created).toMatchObject({ name: 'Office rollout', site_name: site!.siteName, state: 'active' });
    const list = await server.request<Envelope<EnrollmentToken[]>>(
      'GET',
      '/api/customer/agents/enrollment-tokens',
      {
        token: admin.token,
      },
    );
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    expect(list.body.data.find((t) => t.id === created.id)?.token_prefix).toBe(created.token.slice(0, 10));
    const [stored] = await server.database.db
      .select()
      .from(enrollmentTokens)
      .where(eq(enrollmentTokens.id, created.id));
    expect(JSON.stringify(stored)).not.toContain(created.token);
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Create Enrollment Token'));
    expect(audit).toHaveLength(1);
  });

  it('is for administrators only', async () => {
    for (const [method, path] of [
      ['GET', '/api/customer/agents/enrollment-tokens'],
      ['POST', '/api/customer/agents/enrollment-tokens'],
      ['DELETE', '/api/customer/agents/enrollment-tokens/1'],
    ] as const) {
      const res = await server.request<Envelope<null>>(method, path, {
        token: techToken,
        body: method === 'POST' ? {} : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(messages.adminOnly);
    }
    expect((await server.request('GET', '/api/customer/agents/enrollment-tokens')).status).toBe(401);
  });

  it('refuses a site of another tenant and answers 404 for another tenant’s token', async () => {
    const globex = await server.devSignIn('admin@globex.example');
    const [acmeSite] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.tenantId));
    const res = await server.request<Envelope<null>>('POST', '/api/customer/agents/enrollment-tokens', {
      token: globex.token,
      body: { site_id: acmeSite!.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(messages.siteNotFound);
    const acmeToken = await createEnrollmentToken(request, admin.token);
    const del = await server.request<Envelope<null>>(
      'DELETE',
      `/api/customer/agents/enrollment-tokens/${acmeToken.id}`,
      {
        token: globex.token,
      },
    );
    expect(del.status).toBe(404);
    expect(del.body.error).toBe(messages.enrollmentTokenNotFound);
  });

  it('enrols a device: guid and secret returned, only the secret hash stored, site from the token', async () => {
    const [site] = await server.database.db.select().from(sites).where(eq(sites.tenantId, admin.tenantId));
    const t = await createEnrollmentToken(request, admin.token, { site_id: site!.id });
    const res = await enroll(request, t.token, facts({ hostname: 'enrol-1', serialNumber: 'SN-ENROL-1' }));
    expect(res.status).toBe(200);
    expect(res.body.data.device_guid).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, res.body.data.device_guid));
    expect(row).toMatchObject({
      tenantId: admin.tenantId,
      siteId: site!.id,
      hostname: 'enrol-1',
      status: 'offline',
    });
    expect(JSON.stringify(row)).not.toContain(res.body.data.agent_secret);
    const [used] = await server.database.db
      .select()
      .from(enrollmentTokens)
      .where(eq(enrollmentTokens.id, t.id));
    expect(used?.useCount).toBe(1);
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.resourceId, String(row!.id)));
    expect(audit.map((a) => a.action)).toContain('Create Device');
  });

  it('re-enrolment keeps the record only for an agent that proves its guid and secret', async () => {
    const t = await createEnrollmentToken(request, admin.token);
    const f = facts({ hostname: 'reuse-me', machineId: 'machine-reuse-1', serialNumber: 'SN-REUSE' });
    const first = (await enroll(request, t.token, f)).body.data;
    const second = (await reEnroll(t.token, f, first)).body.data;
    expect(second.reused).toBe(true);
    expect(second.device_guid).toBe(first.device_guid);
    const rows = await server.database.db.select().from(devices).where(eq(devices.hostname, 'reuse-me'));
    expect(rows).toHaveLength(1);
    await expect(
      connectAgentSocket(server.url, first.device_guid, first.agent_secret).opened,
    ).rejects.toThrow('401');
    const socket = connectAgentSocket(server.url, second.device_guid, second.agent_secret);
    await socket.opened;
    await socket.close();
    // the same machine without its identity (a fresh install) is a new device; the old record is
    // left to the duplicate cleanup
    const fresh = (await enroll(request, t.token, f)).body.data;
    expect(fresh.reused).toBe(false);
    expect(fresh.device_guid).not.toBe(first.device_guid);
    const audit = await server.database.db
      .select({ action: auditLogs.action, userName: auditLogs.userName, userId: auditLogs.userId })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'Update Device'));
    expect(audit).toEqual([
      { action: 'Update Device', userName: `Agent enrolment (${t.token_prefix})`, userId: null },
    ]);
  });

  it('a serial number or machine id never hands over an existing device (takeover)', async () => {
    const [hq, london] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.tenantId))
      .orderBy(sites.id);
    const hqToken = await createEnrollmentToken(request, admin.token, { site_id: hq!.id });
    const londonToken = await createEnrollmentToken(request, admin.token, { site_id: london!.id });
    const victimFacts = facts({
      hostname: 'VICTIM-HQ',
      machineId: 'victim-machine',
      serialNumber: 'SN-VICTIM',
    });
    const victim = (await enroll(request, hqToken.token, victimFacts)).body.data;
    // the attacker copies the victim's serial and machine id, with another token of the tenant
    const attacker = await enroll(request, londonToken.token, { ...victimFacts, hostname: 'ATTACKER' });
    expect(attacker.status).toBe(200);
    expect(attacker.body.data.reused).toBe(false);
    expect(attacker.body.data.device_guid).not.toBe(victim.device_guid);
    // a guid without its secret proves nothing either
    const guessed = await reEnroll(londonToken.token, victimFacts, {
      device_guid: victim.device_guid,
      agent_secret: 'not-the-secret',
    });
    expect(guessed.body.data.reused).toBe(false);
    expect(guessed.body.data.device_guid).not.toBe(victim.device_guid);
    // the victim keeps its identity, its site and its connection
    const socket = connectAgentSocket(server.url, victim.device_guid, victim.agent_secret);
    await socket.opened;
    await socket.close();
    const [victimRow] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, victim.device_guid));
    expect(victimRow).toMatchObject({ hostname: 'VICTIM-HQ', siteId: hq!.id });
    // the new records are in the site of the token that enrolled them
    const [attackerRow] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, attacker.body.data.device_guid));
    expect(attackerRow?.siteId).toBe(london!.id);
  });

  it('refuses bad, revoked and expired tokens with clear reasons', async () => {
    const bad = await enroll(request, 'opt_not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe(messages.enrollTokenInvalid);

    const t = await createEnrollmentToken(request, admin.token);
    const revoke = await server.request<Envelope<EnrollmentToken>>(
      'DELETE',
      `/api/customer/agents/enrollment-tokens/${t.id}`,
      { token: admin.token },
    );
    expect(revoke.body.data.state).toBe('revoked');
    const revoked = await enroll(request, t.token);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe(messages.enrollTokenRevoked);

    const soon = await createEnrollmentToken(request, admin.token, {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await server.database.db
      .update(enrollmentTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(enrollmentTokens.id, soon.id));
    const expired = await enroll(request, soon.token);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe(messages.enrollTokenExpired);

    const malformed = await server.request<Envelope<null>>('POST', '/api/agent/enroll', {
      body: { token: t.token },
    });
    expect(malformed.status).toBe(400);
  });

  it('enforces max_agents with a clear error, still allowing re-enrolment', async () => {
    const globex = await server.devSignIn('admin@globex.example');
    await server.database.db
      .update(tenants)
      .set({ maxAgents: 2 })
      .where(eq(tenants.id, globex.user.tenant_id));
    const t = await createEnrollmentToken(request, globex.token);
    const one = await enroll(request, t.token, facts({ hostname: 'g1', machineId: 'g-1' }));
    const two = await enroll(request, t.token, facts({ hostname: 'g2', machineId: 'g-2' }));
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await enroll(request, t.token, facts({ hostname: 'g3', machineId: 'g-3' }));
    expect(three.status).toBe(403);
    expect(three.body).toMatchObject({ error: messages.maxAgentsReached(2), code: 'MAX_AGENTS_REACHED' });
    const again = await reEnroll(t.token, facts({ hostname: 'g1', machineId: 'g-1' }), one.body.data);
    expect(again.status).toBe(200);
    expect(again.body.data.reused).toBe(true);
  });

  const countDevices = async (tenantId: number) =>
    (await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.tenantId, tenantId)))
      .length;

  it('enrolments at once into a limited tenant take exactly its free places; an unlimited one takes all, counting the token once each', async () => {
    const globex = await server.devSignIn('admin@globex.example');
    const before = await countDevices(globex.user.tenant_id);
    await server.database.db
      .update(tenants)
      .set({ maxAgents: before + 3 })
      .where(eq(tenants.id, globex.user.tenant_id));
    const limited = await createEnrollmentToken(request, globex.token);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        enroll(request, limited.token, facts({ hostname: `race-${i}`, machineId: `race-${i}` })).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    expect(await countDevices(globex.user.tenant_id)).toBe(before + 3);

    await server.database.db
      .update(tenants)
      .set({ maxAgents: null })
      .where(eq(tenants.id, globex.user.tenant_id));
    const open = await createEnrollmentToken(request, globex.token);
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        enroll(request, open.token, facts({ hostname: `open-${i}`, machineId: `open-${i}` })).then(
          (r) => r.status,
        ),
      ),
    );
    expect(all).toEqual(Array.from({ length: 8 }, () => 200));
    const [row] = await server.database.db
      .select({ useCount: enrollmentTokens.useCount })
      .from(enrollmentTokens)
      .where(eq(enrollmentTokens.id, open.id));
    expect(row?.useCount).toBe(8);
  });

  it('a site-limited administrator lists, creates and revokes tokens of their sites only', async () => {
    const [hq, london] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.tenantId))
      .orderBy(sites.id);
    await addMember(server.database.db, {
      tenantId: admin.tenantId,
      email: 'london-admin@acme.example',
      role: 'tenant_admin',
      siteIds: [london!.id],
    });
    const londonAdmin = (await server.devSignIn('london-admin@acme.example')).token;
    const hqToken = await createEnrollmentToken(request, admin.token, { site_id: hq!.id, name: 'HQ only' });
    const tenantWide = await createEnrollmentToken(request, admin.token, { name: 'Anywhere' });
    const own = await createEnrollmentToken(request, londonAdmin, { site_id: london!.id, name: 'London' });

    const list = await request<Envelope<EnrollmentToken[]>>('GET', '/api/customer/agents/enrollment-tokens', {
      token: londonAdmin,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((t) => t.site_id === london!.id)).toBe(true);
    expect(list.body.data.map((t) => t.id)).toContain(own.id);

    for (const body of [{ site_id: hq!.id }, {}]) {
      const refused = await request<Envelope<null>>('POST', '/api/customer/agents/enrollment-tokens', {
        token: londonAdmin,
        body,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(accessMessages.tokenSiteOutsideScope);
    }

    for (const other of [hqToken, tenantWide]) {
      const revoke = await request<Envelope<null>>(
        'DELETE',
        `/api/customer/agents/enrollment-tokens/${other.id}`,
        {
          token: londonAdmin,
        },
      );
      expect(revoke.status).toBe(404);
      const [row] = await server.database.db
        .select({ revokedAt: enrollmentTokens.revokedAt })
        .from(enrollmentTokens)
        .where(eq(enrollmentTokens.id, other.id));
      expect(row?.revokedAt).toBeNull();
    }
    const revokeOwn = await request<Envelope<EnrollmentToken>>(
      'DELETE',
      `/api/customer/agents/enrollment-tokens/${own.id}`,
      { token: londonAdmin },
    );
    expect(revokeOwn.body.data.state).toBe('revoked');
  });
});
