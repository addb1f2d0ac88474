import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { devices } from '../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
  REDIS_URL,
  throwawayDatabase,
} from '../../test/support/live';

// docs/product/agent-protocol.md#several-instances: two instances on one PostgreSQL and one Redis. This test always uses a real
// PostgreSQL (TEST_DATABASE_URL, else the local default) and Redis (TEST_REDIS_URL, else the
// local default), on PGlite runs too, because two instances cannot share an in-memory PGlite.

describe('two server instances, one PostgreSQL, one Redis', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    db = await throwawayDatabase();
    // a prefix of its own, so parallel runs sharing the Redis do not hear each other
    const env = {
      REDIS_URL,
      REDIS_CHANNEL_PREFIX: `outpost-test-${crypto.randomBytes(4).toString('hex')}:`,
      AGENT_HEARTBEAT_INTERVAL_MS: '500',
      AGENT_PRESENCE_GRACE_MS: '500',
    };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    expect(one.app.bus.kind).toBe('redis');
    await one.seedDemo();
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('an agent on instance 1 is seen live on instance 2 and gets commands issued through instance 2', async () => {
    const admin = await two.devSignIn('admin@acme.example');
    const t = await createEnrollmentToken(two, admin.token);
    const creds = (await enroll(one, t.token, facts({ hostname: 'scale-pc' }))).body.data;

    const portal = connectPortalSocket(two.url, portalAuth(admin));
    await portal.waitFor('connection_status');
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `device:${creds.device_guid}` } });
    await portal.waitFor('subscribed');

    const agent = await onlineAgent(one.url, creds, { hostname: 'scale-pc' });
    expect(one.app.agentHub.isConnectedHere((await deviceId(creds.device_guid))!)).toBe(true);
    expect(two.app.agentHub.isConnectedHere((await deviceId(creds.device_guid))!)).toBe(false);
    const update = await portal.waitFor('device_update', (m) => m.payload.status === 'online');
    expect(update.payload).toMatchObject({ deviceId: creds.device_guid, status: 'online' });

    // a command issued through instance 2 reaches the agent on instance 1, and its result comes back
    const { commandId } = await two.app.commandQueue.sendCommand({
      tenantId: admin.user.tenant_id,
      deviceId: (await deviceId(creds.device_guid))!,
      command: { kind: 'refresh_inventory', inventoryKind: 'hardware' },
    });
    const waiting = two.app.commandQueue.waitForResult(commandId, 10_000);
    const command = await agent.waitFor('command', (m) => m.commandId === commandId);
    expect(command.command).toEqual({ kind: 'refresh_inventory', inventoryKind: 'hardware' });
    agent.send({
      type: 'command_result',
      messageId: 'scale-r1',
      commandId,
      status: 'completed',
      result: { ok: true },
    });
    expect(await waiting).toMatchObject({ status: 'completed', result: { ok: true } });

    // the agent moves to instance 2: instance 1 lets go without marking it offline. A control
    // agent dropped from instance 1 at the same moment marks when instance 1's grace has run out.
    const control = (await enroll(one, t.token, facts({ hostname: 'scale-control' }))).body.data;
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `device:${control.device_guid}` } });
    await portal.waitFor('subscribed', (m) => m.payload.subscriptionKey === `device:${control.device_guid}`);
    const dropped = await onlineAgent(one.url, control);
    const from = portal.received.length;
    const moved = await onlineAgent(two.url, creds, { hostname: 'scale-pc' });
    await Promise.all([agent.waitForClose(), dropped.close()]);
    await portal.waitFor(
      'device_update',
      (m) => m.payload.deviceId === control.device_guid && m.payload.status === 'offline',
      10_000,
      from,
    );
    expect(
      portal
        .ofType('device_update', from)
        .filter((m) => m.payload.deviceId === creds.device_guid && m.payload.status === 'offline'),
    ).toEqual([]);
    const [row] = await two.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    expect(row?.status).toBe('online');
    await moved.close();
    await eventually(async () => {
      const [r] = await two.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      return r?.status === 'offline';
    });
    await portal.close();
  });

  async function deviceId(guid: string) {
    const [row] = await one.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.deviceGuid, guid));
    return row?.id ?? null;
  }
});
