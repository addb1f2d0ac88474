import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CAPABILITIES } from '@outpost/contract/agent-protocol';
import { DEFAULT_REMOTE_ACCESS, remoteMessages } from '@outpost/contract/remote-access';
import type { RemoteAccessView } from '@outpost/contract/remote-access';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import type { Envelope } from '../../../test/support/policies';
import { DEMO } from '../demo/demo.seed';

// docs/product/remote-access.md#settings: every member reads the settings, administrators of all
// sites change them (audited), agents with the `remote` capability are told the policy after
// their welcome and again when it changes; agents without it are told nothing.

const API = '/api/customer/settings/remote-access';

describe('remote access settings', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let siteAdmin: string;
  const sockets: AgentSocket[] = [];
  const call = <T = RemoteAccessView>(method: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, API, { token, body });

  beforeAll(async () => {
    server = await startTestServer();
    const seeded = (await server.seedDemo())!;
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    const created = await server.request('POST', '/api/customer/users', {
      token: admin,
      body: {
        email: 'site-admin-remote@acme.example',
        name: 'Site Admin',
        role: 'tenant_admin',
        site_access_type: 'specific',
        site_ids: [seeded.siteIds[0]],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    siteAdmin = (await server.devSignIn('site-admin-remote@acme.example')).token;
  });
  afterAll(async () => {
    for (const s of sockets) {
      s.ws.close();
    }
    await server?.close();
  });

  it('starts with the defaults; members read, only administrators of all sites change', async () => {
    const read = await call('GET', tech);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data).toMatchObject({
      ...DEFAULT_REMOTE_ACCESS,
      can_edit: false,
      caller_allowed: false,
    });
    expect((await call('GET', admin)).body.data).toMatchObject({ can_edit: true, caller_allowed: true });

    expect((await call('PUT', tech, { consent_required: true })).status).toBe(403);
    const limited = await call('PUT', siteAdmin, { consent_required: true });
    expect(limited.status).toBe(403);
    expect(limited.body).toMatchObject({ error: remoteMessages.allSitesOnly });
    expect((await call('GET', admin)).body.data.consent_required).toBe(false);
  });

  it('refuses bad values with a message and keeps what was saved', async () => {
    const bad = await call('PUT', admin, { idle_timeout_minutes: 0 });
    expect(bad.status).toBe(400);
    const noRoles = await call('PUT', admin, { allowed_roles: [] });
    expect(noRoles.status).toBe(400);
    expect(JSON.stringify(noRoles.body)).toContain('Choose at least one role');
    expect((await call('PUT', admin, { surprise: true })).status).toBe(400);
    expect((await call('GET', admin)).body.data.idle_timeout_minutes).toBe(
      DEFAULT_REMOTE_ACCESS.idle_timeout_minutes,
    );
  });

  it('tells agents that take remote access the policy, at once and after a change, and audits it', async () => {
    const token = (await createEnrollmentToken(server, admin)).token;
    const creds = (await enroll(server, token, facts({ hostname: 'remote-1', machineId: 'mid-remote-1' })))
      .body.data;
    const remote = await onlineAgent(server.url, creds, {
      hostname: 'remote-1',
      capabilities: [AGENT_CAPABILITIES.remote],
    });
    const plainCreds = (
      await enroll(server, token, facts({ hostname: 'remote-2', machineId: 'mid-remote-2' }))
    ).body.data;
    const plain = await onlineAgent(server.url, plainCreds, { hostname: 'remote-2' });
    sockets.push(remote, plain);

    const first = await remote.waitFor('remote_policy');
    expect(first).toEqual({
      type: 'remote_policy',
      terminal: true,
      files: true,
      consent: false,
      banner: true,
    });

    const saved = await call('PUT', admin, {
      terminal_enabled: false,
      consent_required: true,
      allowed_roles: ['tenant_admin', 'user'],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({
      terminal_enabled: false,
      consent_required: true,
      files_enabled: true,
    });
    const changed = await remote.waitFor('remote_policy', (m) => !m.terminal);
    expect(changed).toMatchObject({ terminal: false, files: true, consent: true });
    expect(plain.received.some((m) => m.type === 'remote_policy')).toBe(false);
    expect((await call('GET', tech)).body.data.caller_allowed).toBe(true);

    const audit = await server.request<Envelope<{ logs: Array<{ action: string; details: string }> }>>(
      'GET',
      '/api/customer/audit?action=Update%20Remote%20Access%20Settings',
      { token: admin },
    );
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body.data)).toContain('Changed terminal, roles, consent');
  });
});
