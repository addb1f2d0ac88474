import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { EnrollmentToken } from '@outpost/contract/agents';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, devices, enrollmentTokens, sites, tenants } from '../../db/schema/index';
import { connectAgentSocket, createEnrollmentToken, enroll, facts } from '../../live/test-support';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('enrolment tokens and POST /api/agent/enroll', () => {
  let server: TestServer;
  let admin: { token: string; tenantId: number };
  let techToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    const a = await server.devSignIn('admin@acme.example');
    admin = { token: a.token, tenantId: a.user.tenant_id };
    techToken = (await server.devSignIn('tech@acme.example')).token;
  });
  afterAll(async () => server?.close());

  it('creates a token shown once, lists it by prefix only, and audits it', async () => {
    const [site] = await server.database.db.select().from(sites).where(eq(sites.tenantId, admin.tenantId));
    const created = await createEnrollmentToken(server.request, admin.token, {
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
    const acmeToken = await createEnrollmentToken(server.request, admin.token);
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
    const t = await createEnrollmentToken(server.request, admin.token, { site_id: site!.id });
    const res = await enroll(
      server.request,
      t.token,
      facts({ hostname: 'enrol-1', serialNumber: 'SN-ENROL-1' }),
    );
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
    expect(audit.map((a) => a.action)).toContain('Enroll Device');
  });

  it('re-enrolling the same machine reuses its record and retires the old secret', async () => {
    const t = await createEnrollmentToken(server.request, admin.token);
    const f = facts({ hostname: 'reuse-me', machineId: 'machine-reuse-1', serialNumber: 'SN-REUSE' });
    const first = (await enroll(server.request, t.token, f)).body.data;
    const second = (await enroll(server.request, t.token, { ...f, machineId: null })).body.data;
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
    // generic vendor serials identify nothing
    const a = (
      await enroll(
        server.request,
        t.token,
        facts({ hostname: 'oem-a', serialNumber: 'To Be Filled By O.E.M.' }),
      )
    ).body.data;
    const b = (
      await enroll(
        server.request,
        t.token,
        facts({ hostname: 'oem-b', serialNumber: 'To Be Filled By O.E.M.' }),
      )
    ).body.data;
    expect(a.device_guid).not.toBe(b.device_guid);
  });

  it('refuses bad, revoked and expired tokens with clear reasons', async () => {
    const bad = await enroll(server.request, 'opt_not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe(messages.enrollTokenInvalid);

    const t = await createEnrollmentToken(server.request, admin.token);
    const revoke = await server.request<Envelope<EnrollmentToken>>(
      'DELETE',
      `/api/customer/agents/enrollment-tokens/${t.id}`,
      { token: admin.token },
    );
    expect(revoke.body.data.state).toBe('revoked');
    const revoked = await enroll(server.request, t.token);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe(messages.enrollTokenRevoked);

    const soon = await createEnrollmentToken(server.request, admin.token, {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await server.database.db
      .update(enrollmentTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(enrollmentTokens.id, soon.id));
    const expired = await enroll(server.request, soon.token);
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
    const t = await createEnrollmentToken(server.request, globex.token);
    const one = await enroll(server.request, t.token, facts({ hostname: 'g1', machineId: 'g-1' }));
    const two = await enroll(server.request, t.token, facts({ hostname: 'g2', machineId: 'g-2' }));
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await enroll(server.request, t.token, facts({ hostname: 'g3', machineId: 'g-3' }));
    expect(three.status).toBe(403);
    expect(three.body).toMatchObject({ error: messages.maxAgentsReached(2), code: 'MAX_AGENTS_REACHED' });
    const again = await enroll(server.request, t.token, facts({ hostname: 'g1', machineId: 'g-1' }));
    expect(again.status).toBe(200);
    expect(again.body.data.reused).toBe(true);
  });
});
