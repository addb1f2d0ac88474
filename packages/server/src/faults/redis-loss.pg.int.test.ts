import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { deviceCommands, devices } from '../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
  throwawayDatabase,
} from '../../test/support/live';
import type { AgentSocket } from '../../test/support/live';
import { startOwnRedis } from '../../test/support/faults';
import type { OwnRedis } from '../../test/support/faults';

// Faults: Redis stops while two instances share it (docs/product/agent-protocol.md#several-instances). Neither instance
// crashes, /api/health says `degraded` with Redis down, a device action and an inventory refresh
// issued through instance B still reach the agent connected to instance A (the database is the
// queue: each instance polls it for the agents it holds, and a waiting request reads the result
// from the database), and live updates between instances resume once Redis is back. The test
// runs its own redis-server, so the shared one is never stopped.

type Envelope<T> = { success: boolean; data: T; code?: string; error?: string };
type Health = { status: string; checks: { database: string; redis: string } };

describe('Redis lost in multi-instance mode', () => {
  let redis: OwnRedis;
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    redis = await startOwnRedis();
    db = await throwawayDatabase();
    const env = {
      REDIS_URL: redis.url,
      REDIS_CHANNEL_PREFIX: `faults-${crypto.randomBytes(4).toString('hex')}:`,
      AGENT_HEARTBEAT_INTERVAL_MS: '60000',
    };
    a = await startTestServer({ databaseUrl: db.url, env });
    b = await startTestServer({ databaseUrl: db.url, env });
    await a.seedDemo();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
    await db?.drop();
  });

  /** Answers every command the agent is offered: inventory first for a refresh, then the result. */
  function answerCommands(agent: AgentSocket) {
    const answered = new Set<string>();
    const tick = setInterval(() => {
      for (const c of agent.ofType('command')) {
        if (answered.has(c.commandId)) {
          continue;
        }
        answered.add(c.commandId);
        if (c.command.kind === 'refresh_inventory') {
          agent.send({
            type: 'inventory',
            messageId: crypto.randomUUID(),
            collectedAt: new Date().toISOString(),
            services: [],
          });
        }
        agent.send({
          type: 'command_result',
          messageId: crypto.randomUUID(),
          commandId: c.commandId,
          status: 'completed',
          result: {},
        });
      }
    }, 50);
    return () => clearInterval(tick);
  }

  it('stays up, reports degraded, still delivers commands through the database, and resumes live updates', async () => {
    const admin = await b.devSignIn('admin@acme.example');
    const token = (await createEnrollmentToken(a, admin.token)).token;
    const creds = (await enroll(a, token, facts({ hostname: 'redis-less' }))).body.data;
    const agent = await onlineAgent(a.url, creds, { hostname: 'redis-less' });
    const stopAnswering = answerCommands(agent);
    const [device] = await a.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const portal = connectPortalSocket(b.url, portalAuth(admin));
    await portal.waitFor('connection_status');
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `device:${creds.device_guid}` } });
    await portal.waitFor('subscribed');

    const health = async (s: TestServer) => (await s.request<Envelope<Health>>('GET', '/api/health')).body;
    expect((await health(b)).data).toMatchObject({ status: 'ok', checks: { database: 'up', redis: 'up' } });

    await redis.stop();
    for (const s of [a, b]) {
      await eventually(async () => {
        const h = await health(s);
        return h.success && h.data.status === 'degraded' && h.data.checks.redis === 'down';
      });
    }

    // A device action through B, for the agent held by A.
    const action = await b.request<Envelope<{ actions: { id: string }[] }>>(
      'POST',
      '/api/customer/deployments/device-actions',
      { token: admin.token, body: { device_id: device!.id, action_type: 'restart' } },
    );
    expect(action.status).toBe(200);
    const actionId = action.body.data.actions[0]!.id;
    await agent.waitFor('command', (c) => c.commandId === actionId, 15_000);
    await eventually(async () => {
      const [row] = await a.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, actionId));
      return row?.status === 'completed';
    });

    // A refresh through B waits for the agent's answer, which arrives at A.
    const refresh = await b.request<Envelope<{ kind: string }>>(
      'POST',
      `/api/customer/devices/${device!.id}/refresh/services`,
      { token: admin.token },
    );
    expect(refresh.status).toBe(200);
    expect(refresh.body.data.kind).toBe('services');

    // Nothing crashed: both instances answer and serve reads.
    for (const s of [a, b]) {
      expect((await s.request('GET', '/api/customer/devices', { token: admin.token })).status).toBe(200);
    }

    await redis.start();
    for (const s of [a, b]) {
      await eventually(async () => (await health(s)).data?.status === 'ok', 20_000);
    }
    // Live updates from A reach B's portal socket again: a fault reported to A shows on B.
    const from = portal.received.length;
    await eventually(async () => {
      agent.send({ type: 'fault', active: true, message: `fault ${Date.now()}` });
      await new Promise((r) => setTimeout(r, 300));
      agent.send({ type: 'fault', active: false });
      await new Promise((r) => setTimeout(r, 300));
      return portal.ofType('device_update', from).some((m) => m.payload.status === 'error');
    }, 20_000);

    stopAnswering();
    await portal.close();
    await agent.close();
  }, 60_000);
});
