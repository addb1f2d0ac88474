import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CAPABILITIES } from '@outpost/contract/agent-protocol';
import type { TerminalOpenMessage } from '@outpost/contract/agent-protocol';
import { remoteMessages } from '@outpost/contract/remote-access';
import type { TerminalSessionView } from '@outpost/contract/terminal';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import type { Envelope } from '../../../test/support/policies';
import { TerminalClient } from '../../../test/support/terminal';
import type { TerminalRefusal } from '../../../test/support/terminal';
import { addMember } from '../tenants/tenants.service';
import { DEMO } from '../demo/demo.seed';

// docs/product/remote-access.md#terminal, the server's side with a protocol-level agent: every
// refusal before the upgrade (with its message), the relay in order, the device going offline,
// and the sessions list and recordings within the caller's tenant and sites.

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the terminal opened');
    },
    (err: TerminalRefusal) => err,
  );

describe('the remote terminal: server side', () => {
  let server: TestServer;
  let admin: string;
  let tech: string;
  let globex: string;
  let limited: string;
  let deviceId: number;
  let agent: AgentSocket;
  let plainDeviceId: number;

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    const [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globex = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, {
      tenantId: demo.acmeTenantId,
      email: 'limited-terminal@acme.example',
      role: 'tenant_admin',
      siteIds: [london],
    });
    limited = (await server.devSignIn('limited-terminal@acme.example')).token;
    const token = (await createEnrollmentToken(server, admin, { site_id: hq })).token;
    const creds = (
      await enroll(server, token, facts({ hostname: 'term-fake', osType: 'linux', machineId: 'term-1' }))
    ).body.data;
    agent = await onlineAgent(server.url, creds, {
      hostname: 'term-fake',
      osType: 'linux',
      capabilities: [AGENT_CAPABILITIES.remote],
    });
    await agent.waitFor('remote_policy');
    const plain = (
      await enroll(server, token, facts({ hostname: 'term-old', osType: 'linux', machineId: 'term-2' }))
    ).body.data;
    await onlineAgent(server.url, plain, { hostname: 'term-old', osType: 'linux' });
    const ids = await server.request<Envelope<{ data: Array<{ id: number; hostname: string }> }>>(
      'GET',
      '/api/customer/devices?search=term-',
      { token: admin },
    );
    deviceId = ids.body.data.data.find((d) => d.hostname === 'term-fake')!.id;
    plainDeviceId = ids.body.data.data.find((d) => d.hostname === 'term-old')!.id;
  });
  afterAll(async () => {
    agent?.ws.close();
    await server?.close();
  });

  it('refuses before the upgrade: no token, a role not allowed, another tenant, another site, a wrong shell', async () => {
    expect((await refusal(TerminalClient.open(server.url, deviceId, ''))).status).toBe(401);
    const role = await refusal(TerminalClient.open(server.url, deviceId, tech));
    expect(role).toMatchObject({ status: 403, body: { error: remoteMessages.roleNotAllowed } });
    expect((await refusal(TerminalClient.open(server.url, deviceId, globex))).status).toBe(404);
    expect((await refusal(TerminalClient.open(server.url, deviceId, limited))).status).toBe(404);
    const shell = await refusal(TerminalClient.open(server.url, deviceId, admin, { shell: 'powershell' }));
    expect(shell.status).toBe(400);
    const size = await refusal(TerminalClient.open(server.url, deviceId, admin, { cols: 5 }));
    expect(size.status).toBe(400);
  });

  it('an agent without remote access is refused with a clear message', async () => {
    const term = await TerminalClient.open(server.url, plainDeviceId, admin);
    expect(await term.waitForEnd()).toMatchObject({ reason: 'refused', message: remoteMessages.agentTooOld });
  });

  it('relays in order both ways, and ends when the device goes offline', async () => {
    const term = await TerminalClient.open(server.url, deviceId, admin, { cols: 90, rows: 20 });
    const open: TerminalOpenMessage = await agent.waitFor('terminal_open');
    expect(open).toMatchObject({ shell: 'default', cols: 90, rows: 20, consent: false });
    agent.send({ type: 'terminal_started', sessionId: open.sessionId, shell: '/bin/bash' });
    for (let i = 1; i <= 50; i += 1) {
      term.type(`k${i};`);
    }
    const inputs = await agent.waitFor(
      'terminal_input',
      () => agent.received.filter((m) => m.type === 'terminal_input').length === 50,
    );
    expect(inputs).toBeTruthy();
    const typed = agent.received
      .filter((m) => m.type === 'terminal_input')
      .map((m) => Buffer.from((m as { data: string }).data, 'base64').toString())
      .join('');
    expect(typed).toBe(Array.from({ length: 50 }, (_, i) => `k${i + 1};`).join(''));
    for (let i = 1; i <= 50; i += 1) {
      agent.send({
        type: 'terminal_output',
        sessionId: open.sessionId,
        seq: i,
        data: Buffer.from(`o${i};`).toString('base64'),
      });
    }
    const expected = Array.from({ length: 50 }, (_, i) => `o${i + 1};`).join('');
    await term.waitForText(expected);
    expect(term.text).toBe(expected);

    agent.ws.terminate();
    expect(await term.waitForEnd()).toMatchObject({ reason: 'device_offline' });
    await term.closed;
  });

  it('lists sessions and serves recordings within the caller’s tenant and sites', async () => {
    const list = async (token: string) =>
      (
        await server.request<Envelope<TerminalSessionView[]>>(
          'GET',
          `/api/customer/terminal-sessions?device_id=${deviceId}`,
          { token },
        )
      ).body.data;
    const sessions = await list(admin);
    const last = sessions.find((s) => s.end_reason === 'device_offline');
    expect(last).toMatchObject({ device_name: 'term-fake', end_message: 'The device went offline' });
    expect(await list(globex)).toEqual([]);
    expect(await list(limited)).toEqual([]);
    const path = `/api/customer/terminal-sessions/${last!.id}/recording`;
    expect((await server.request('GET', path, { token: globex })).status).toBe(404);
    expect((await server.request('GET', path, { token: limited })).status).toBe(404);
    const own = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-disposition')).toContain('.cast');
    const bad = await server.request('GET', '/api/customer/terminal-sessions?device_id=0', { token: admin });
    expect(bad.status).toBe(400);
  });

  it('refuses with 403 and its message when the terminal is turned off', async () => {
    const off = await server.request('PUT', '/api/customer/settings/remote-access', {
      token: admin,
      body: { terminal_enabled: false },
    });
    expect(off.status).toBe(200);
    const refused = await refusal(TerminalClient.open(server.url, deviceId, admin));
    expect(refused).toMatchObject({ status: 403, body: { error: remoteMessages.terminalOff } });
  });
});
