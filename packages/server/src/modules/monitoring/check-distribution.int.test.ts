import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CAPABILITIES } from '@outpost/contract/agent-protocol';
import type { CheckResultsMessage } from '@outpost/contract/agent-protocol';
import type { DeviceCheck, MonitoringPolicy, MonitoringPolicyBody } from '@outpost/contract/checks';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent, sleep } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import type { Envelope } from '../../../test/support/policies';
import { DEMO } from '../demo/demo.seed';
import { createCheckDistribution } from './check-distribution';
import type { CheckChange } from './check-distribution';

// docs/product/monitoring.md#checks: an agent with the `checks` capability gets its check set
// after the welcome and again when a policy changes it; one without the capability gets none;
// the states it reports are stored, and only real changes reach the alerts' hook.

describe('check distribution: agents get their checks, states are stored', () => {
  let server: TestServer;
  let admin: string;
  let enrollToken: string;
  const sockets: AgentSocket[] = [];

  const call = <T = unknown>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });
  // each test's policies watch another CPU threshold, so no test's check is another's duplicate
  const policy = (name: string, over: Partial<MonitoringPolicyBody> = {}, percent = 95) =>
    call<MonitoringPolicy>('POST', '/api/customer/monitoring-policies', {
      name,
      target_type: 'tenant',
      checks: [{ name: 'CPU', config: { type: 'cpu', percent, minutes: 5 } }],
      ...over,
    });
  const agent = async (hostname: string, capabilities?: string[]) => {
    const creds = (await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` }))).body
      .data;
    const socket = await onlineAgent(server.url, creds, { hostname, ...(capabilities && { capabilities }) });
    sockets.push(socket);
    return { creds, socket };
  };

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    enrollToken = (await createEnrollmentToken(server, admin)).token;
  });
  afterAll(async () => {
    for (const s of sockets) {
      s.ws.close();
    }
    await server?.close();
  });

  it('sends the set after the welcome and a new one after a policy change; none without the capability', async () => {
    const first = await policy('Fleet CPU');
    expect(first.status).toBe(200);
    const { socket } = await agent('chk-1', [AGENT_CAPABILITIES.checks]);
    const plain = await agent('chk-plain');
    const welcomeSet = await socket.waitFor('checks');
    expect(welcomeSet.checks.map((c) => c.id)).toEqual([first.body.data.checks[0]!.id]);
    expect(welcomeSet.checks[0]).toMatchObject({ type: 'cpu', intervalSeconds: 60, failuresBeforeAlert: 1 });

    const second = await policy('Fleet disk', {
      checks: [
        { name: 'Disk', config: { type: 'disk', volume: '*', min_free_gb: 5 }, interval_seconds: 600 },
      ],
    });
    const changed = await socket.waitFor('checks', (m) => m.revision !== welcomeSet.revision);
    expect(changed.checks.map((c) => c.id)).toEqual([
      first.body.data.checks[0]!.id,
      second.body.data.checks[0]!.id,
    ]);

    // an identical check in another policy runs once
    await policy('Fleet CPU again');
    await call('PUT', `/api/customer/monitoring-policies/${second.body.data.id}`, { enabled: false });
    const disabled = await socket.waitFor('checks', (m) => m.checks.length === 1);
    expect(disabled.checks[0]!.id).toBe(first.body.data.checks[0]!.id);

    await sleep(200);
    expect(plain.socket.ofType('checks')).toEqual([]);
    await call('DELETE', `/api/customer/monitoring-policies/${first.body.data.id}`);
    await call('DELETE', `/api/customer/monitoring-policies/${second.body.data.id}`);
  });

  it("sends a new set when a static group's members change", async () => {
    const group = await call<{ id: number }>('POST', '/api/customer/groups', {
      name: 'Chk kiosks',
      kind: 'static',
    });
    expect(group.status).toBe(200);
    const p = await policy('Kiosk CPU', { target_type: 'group', group_id: group.body.data.id }, 93);
    const checkId = p.body.data.checks[0]!.id;
    const { creds, socket } = await agent('chk-kiosk', [AGENT_CAPABILITIES.checks]);
    const before = await socket.waitFor('checks');
    expect(before.checks.map((c) => c.id)).not.toContain(checkId);
    const [row] = await server.database.db.query.devices.findMany({
      where: (d, { eq }) => eq(d.deviceGuid, creds.device_guid),
    });
    const members = `/api/customer/groups/${group.body.data.id}/members`;
    const runs = (id: number) => (m: { checks: { id: number }[] }) => m.checks.some((c) => c.id === id);
    const stops = (id: number) => (m: { checks: { id: number }[] }) => m.checks.every((c) => c.id !== id);
    /** the first set sent after `action` that satisfies `wanted` */
    const after = async (
      action: () => Promise<number>,
      wanted: (m: { checks: { id: number }[] }) => boolean,
    ) => {
      const from = socket.received.length;
      expect(await action()).toBe(200);
      await socket.waitFor('checks', wanted, 10_000, from);
    };
    const body = { device_ids: [row!.id] };
    await after(async () => (await call('POST', members, body)).status, runs(checkId));
    await after(async () => (await call('DELETE', members, body)).status, stops(checkId));
    // deleting the group deletes the policy that targets it: its check stops
    await after(async () => (await call('POST', members, body)).status, runs(checkId));
    await after(
      async () => (await call('DELETE', `/api/customer/groups/${group.body.data.id}`)).status,
      stops(checkId),
    );
    expect((await call('GET', `/api/customer/monitoring-policies/${p.body.data.id}`)).status).toBe(404);
  });

  it('stores reported states of the checks the device runs, acknowledged; unknown checks ignored', async () => {
    const p = (await policy('Results policy', {}, 91)).body.data;
    const checkId = p.checks[0]!.id;
    const { creds, socket } = await agent('chk-2', [AGENT_CAPABILITIES.checks]);
    await socket.waitFor('checks', (m) => m.checks.some((c) => c.id === checkId));
    const message: CheckResultsMessage = {
      type: 'check_results',
      messageId: 'cr-1',
      results: [
        { checkId, state: 'failing', output: 'CPU at 99 %', checkedAt: new Date().toISOString() },
        { checkId: 999_999, state: 'passing', checkedAt: new Date().toISOString() },
      ],
    };
    socket.send(message);
    await socket.waitFor('ack', (a) => a.messageId === 'cr-1');
    const res = await call<{ data: DeviceCheck[] }>(
      'GET',
      `/api/customer/devices/${creds.device_guid}/checks`,
    );
    const check = res.body.data.data.find((c) => c.check_id === checkId);
    expect(check).toMatchObject({ state: 'failing', output: 'CPU at 99 %' });
    expect(check!.since).toBe(check!.checked_at);
    expect(socket.ofType('error')).toEqual([]);
    await call('DELETE', `/api/customer/monitoring-policies/${p.id}`);
  });

  it('hands only real state changes to the hook, in order; a resent message changes nothing', async () => {
    const p = (await policy('Hook policy', {}, 92)).body.data;
    const checkId = p.checks[0]!.id;
    const { creds } = await agent('chk-3');
    const [row] = await server.database.db.query.devices.findMany({
      where: (d, { eq }) => eq(d.deviceGuid, creds.device_guid),
    });
    const device = { id: row!.id, tenantId: row!.tenantId, siteId: row!.siteId, deviceGuid: row!.deviceGuid };
    const heard: CheckChange[][] = [];
    const distribution = createCheckDistribution({
      db: server.database.db,
      bus: { publish: () => Promise.resolve() },
      onCheckChanges: (_tx, changes) => {
        heard.push(changes);
        return Promise.resolve();
      },
    });
    const report = (state: CheckResultsMessage['results'][number]['state'], at: string, id = 'm') =>
      distribution.checkResults(device, {
        type: 'check_results',
        messageId: id,
        results: [{ checkId, state, output: state, checkedAt: at }],
      });
    const start = Date.now() - 60_000;
    const t = (s: number) => new Date(start + s * 1000).toISOString();

    await report('passing', t(1));
    await report('passing', t(2));
    await report('warning', t(3));
    await report('warning', t(3)); // the same message again (its ack was lost)
    await report('failing', t(2)); // older than the stored result
    expect(heard.map((h) => h.map((c) => [c.state, c.previousState]))).toEqual([
      [['passing', null]],
      [['warning', 'passing']],
    ]);
    expect(heard[1]![0]).toMatchObject({
      tenantId: device.tenantId,
      deviceId: device.id,
      deviceGuid: device.deviceGuid,
      hostname: 'chk-3',
      checkId,
      checkName: 'CPU',
      policyId: p.id,
      severity: 'warning',
      output: 'warning',
    });
    const res = await call<{ data: DeviceCheck[] }>(
      'GET',
      `/api/customer/devices/${creds.device_guid}/checks`,
    );
    const state = res.body.data.data.find((c) => c.check_id === checkId)!;
    expect(state).toMatchObject({ state: 'warning', since: t(3), checked_at: t(3) });

    // a check the device does not run (its policy disabled) is ignored, no error
    await call('PUT', `/api/customer/monitoring-policies/${p.id}`, { enabled: false });
    await report('failing', t(4));
    expect(heard).toHaveLength(2);
  });
});
