import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CleanupPlan, CleanupResult } from '@outpost/contract/device-cleanup';
import type { Device } from '@outpost/contract/devices';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// The impostor of SECURITY.md R2-4, end to end: a holder of an enrolment token enrols with a real
// machine's hostname and serial number, connects and keeps heartbeating. Duplicate cleanup must
// never remove the real device in its favour.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('duplicate cleanup and an impostor enrolled with a stolen token', () => {
  let server: TestServer;
  let admin: string;
  const beats = new Map<AgentSocket, ReturnType<typeof setInterval>>();

  beforeAll(async () => {
    server = await startTestServer({
      env: { AGENT_HEARTBEAT_INTERVAL_MS: '200', AGENT_PRESENCE_GRACE_MS: '300' },
    });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    for (const socket of beats.keys()) {
      await hangUp(socket);
    }
    await server?.close();
  });

  const request = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });
  const preview = async () =>
    (await request<CleanupPlan>('POST', '/api/customer/devices/cleanup/preview', { remove_duplicates: true }))
      .body.data;
  /** Connected and heartbeating like a real agent (a silent socket is closed by the server). */
  const connect = async (creds: EnrollResult, hostname: string) => {
    const socket = await onlineAgent(server.url, creds, { hostname });
    beats.set(
      socket,
      setInterval(() => socket.send({ type: 'heartbeat' }), 100),
    );
    return socket;
  };
  const hangUp = async (socket: AgentSocket) => {
    clearInterval(beats.get(socket));
    await socket.close();
  };
  const statusOf = async (id: number) =>
    (await request<Device>('GET', `/api/customer/devices/${id}`)).body.data;
  const waitStatus = (id: number, status: string) =>
    eventually(async () => (await statusOf(id))?.status === status);
  const idOf = async (guid: string) =>
    (await request<Device>('GET', `/api/customer/devices/${guid}`)).body.data.id;

  it('keeps the real device whether or not it is online, and removes the impostor only once it proved nothing since', async () => {
    const victimFacts = facts({ hostname: 'FINANCE-PC-01', serialNumber: 'SN-FIN-0001' });
    const itToken = await createEnrollmentToken(server.request.bind(server), admin, { name: 'IT rollout' });
    const victimCreds = (await enroll(server.request.bind(server), itToken.token, victimFacts)).body.data;
    const victimId = await idOf(victimCreds.device_guid);
    const victim = await connect(victimCreds, victimFacts.hostname);

    // Another token's holder enrols as the same machine and heartbeats.
    const leaked = await createEnrollmentToken(server.request.bind(server), admin, { name: 'Leaked' });
    const impostorCreds = (await enroll(server.request.bind(server), leaked.token, victimFacts)).body.data;
    expect(impostorCreds.device_guid).not.toBe(victimCreds.device_guid);
    const impostorId = await idOf(impostorCreds.device_guid);
    const impostor = await connect(impostorCreds, victimFacts.hostname);
    await waitStatus(victimId, 'online');
    await waitStatus(impostorId, 'online');

    // Both online: the set is reported for review, nothing is removed.
    const both = await request<CleanupResult>('POST', '/api/customer/devices/cleanup', {
      remove_duplicates: true,
    });
    expect(both.status).toBe(200);
    expect(both.body.data.removed).toBe(0);
    expect(both.body.data.review_sets).toHaveLength(1);
    expect(both.body.data.review_sets[0]).toMatchObject({ kept_device_id: victimId, needs_review: true });
    expect(both.body.data.review_sets[0]!.members.map((m) => [m.id, m.outcome, m.reason])).toEqual([
      [victimId, 'keep', 'first_proven'],
      [impostorId, 'review', 'online'],
    ]);

    // The real machine is switched off for the weekend; the impostor keeps heartbeating, so it is
    // the most recently seen. The real device is still kept.
    await hangUp(victim);
    await waitStatus(victimId, 'offline');
    const weekend = await preview();
    expect(weekend.devices).toEqual([]);
    expect(weekend.duplicate_sets[0]!.members.map((m) => [m.id, m.outcome])).toEqual([
      [victimId, 'keep'],
      [impostorId, 'review'],
    ]);
    const run = await request<CleanupResult>('POST', '/api/customer/devices/cleanup', {
      remove_duplicates: true,
    });
    expect(run.body.data.removed).toBe(0);
    expect((await statusOf(victimId)).id).toBe(victimId);

    // The impostor goes away and the real machine connects again: now the impostor goes.
    await hangUp(impostor);
    await waitStatus(impostorId, 'offline');
    await connect(victimCreds, victimFacts.hostname);
    await waitStatus(victimId, 'online');
    const plan = await preview();
    expect(plan.devices.map((d) => [d.id, d.kept_device_id])).toEqual([[impostorId, victimId]]);

    // ...unless it reconnects between the preview and the confirmation: then it is spared.
    const again = await connect(impostorCreds, victimFacts.hostname);
    await waitStatus(impostorId, 'online');
    const spared = await request<CleanupResult>('POST', '/api/customer/devices/cleanup', {
      remove_duplicates: true,
      device_ids: [impostorId],
    });
    expect(spared.body.data.removed).toBe(0);
    await hangUp(again);
    await waitStatus(impostorId, 'offline');
    // it proved its secret after the real device last did; once the real one is heard from again
    // (its heartbeats are written in batches), the impostor is removable again
    await eventually(async () => {
      return (await preview()).devices.length === 1;
    });
    const done = await request<CleanupResult>('POST', '/api/customer/devices/cleanup', {
      remove_duplicates: true,
      device_ids: [impostorId],
    });
    expect(done.body.data.devices.map((d) => [d.id, d.reason, d.kept_device_id])).toEqual([
      [impostorId, 'duplicate', victimId],
    ]);
    expect((await request<Device>('GET', `/api/customer/devices/${impostorId}`)).status).toBe(404);
    expect((await statusOf(victimId)).status).toBe('online');
  });
});
