import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AGENT_CLOSE } from '@outpost/contract/agent-protocol';
import type { ActivityMessage, EnrollResult } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { devices, deviceSoftware } from '../db/schema/index';
import {
  connectAgentSocket,
  upgradeStatus,
  UpgradeRefused,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  hello,
  onlineAgent,
} from '../../test/support/live';

// SECURITY.md: anonymous upgrades never spend the authenticated agents' budget, and one agent
// cannot queue unbounded work or send faster than its message budget.

const login = (i: number): ActivityMessage => ({
  type: 'activity',
  messageId: `act-${i}`,
  events: [
    { eventType: 'login', userName: `user${i}`, sessionId: `s-${i}`, timestamp: new Date().toISOString() },
  ],
});

async function setUp(env: Record<string, string>) {
  const server = await startTestServer({ env });
  await server.seedDemo();
  const admin = await server.devSignIn('admin@acme.example');
  const token = (await createEnrollmentToken(server, admin.token)).token;
  const enrolled = async (hostname: string): Promise<EnrollResult> =>
    (await enroll(server, token, facts({ hostname, machineId: `mid-${hostname}` }))).body.data;
  return { server, enrolled };
}

describe('agent upgrades: authenticate first, limit failures per address', () => {
  let server: TestServer;
  let enrolled: (hostname: string) => Promise<EnrollResult>;

  beforeAll(async () => {
    // a small shared budget, so a flood charged against it would show at once
    ({ server, enrolled } = await setUp({
      AGENT_UPGRADES_PER_SECOND: '0.5',
      AGENT_UPGRADE_BURST: '5',
      AGENT_AUTH_FAILURES_PER_ADDRESS: '10',
    }));
  });
  afterAll(async () => server?.close());

  it('a flood of garbage upgrades from one address does not make real agents fail with 503', async () => {
    const real = await Promise.all(['pc-real-1', 'pc-real-2', 'pc-real-3'].map(enrolled));
    // 127.0.0.2 is loopback too: the flood comes from another client address
    const floodStatuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const garbage = connectAgentSocket(server.url, real[i % 3]!.device_guid, 'wrong-secret', {
        localAddress: '127.0.0.2',
      });
      floodStatuses.push(await upgradeStatus(garbage));
    }
    expect(floodStatuses.filter((s) => s === 401)).toHaveLength(10);
    expect(floodStatuses.filter((s) => s === 429)).toHaveLength(50);

    const statuses = await Promise.all(
      real.map((creds) =>
        upgradeStatus(connectAgentSocket(server.url, creds.device_guid, creds.agent_secret)),
      ),
    );
    expect(statuses).toEqual([101, 101, 101]);
  });

  it('an address past its failures is refused before its credentials are looked at', async () => {
    const creds = await enrolled('pc-behind-the-flood');
    const status = await upgradeStatus(
      connectAgentSocket(server.url, creds.device_guid, creds.agent_secret, { localAddress: '127.0.0.2' }),
    );
    expect(status).toBe(429);
  });
});

describe('agent upgrades after a restart: a place in line for every refused agent', () => {
  let server: TestServer;
  let enrolled: (hostname: string) => Promise<EnrollResult>;

  beforeAll(async () => {
    ({ server, enrolled } = await setUp({ AGENT_UPGRADES_PER_SECOND: '1', AGENT_UPGRADE_BURST: '2' }));
  });
  afterAll(async () => server?.close());

  const refusedWith = async (creds: EnrollResult) => {
    const socket = connectAgentSocket(server.url, creds.device_guid, creds.agent_secret);
    return socket.opened.then(
      async () => {
        await socket.close();
        return { status: 101, retryAfter: null as string | null };
      },
      (err: unknown) => {
        if (err instanceof UpgradeRefused) {
          return { status: err.status, retryAfter: err.retryAfter };
        }
        throw err;
      },
    );
  };

  it('tells each refused agent when its turn comes, keeps its place when it asks early, and admits it then', async () => {
    const agents = await Promise.all(['pc-r1', 'pc-r2', 'pc-r3', 'pc-r4'].map(enrolled));
    const first = [];
    for (const a of agents) {
      first.push(await refusedWith(a));
    }
    // the burst of two, then one a second: the third waits about 1 s, the fourth about 2 s
    expect(first.map((r) => r.status)).toEqual([101, 101, 503, 503]);
    const [third, fourth] = first.slice(2).map((r) => Number(r.retryAfter));
    expect(third).toBe(1);
    expect(fourth).toBe(2);
    // asking again before its time: its own place (not the end of the line), still refused
    const again = await refusedWith(agents[3]!);
    expect(again.status).toBe(503);
    expect(Number(again.retryAfter)).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await refusedWith(agents[2]!)).status).toBe(101);
    expect((await refusedWith(agents[3]!)).status).toBe(101);
  });
});

describe('agent messages: bounded queue, per-agent rate, nothing left after close', () => {
  let server: TestServer;
  let enrolled: (hostname: string) => Promise<EnrollResult>;

  beforeAll(async () => {
    ({ server, enrolled } = await setUp({
      AGENT_MESSAGE_QUEUE_LIMIT: '5',
      AGENT_MESSAGE_QUEUE_BYTES: '8192',
      AGENT_MESSAGES_PER_SECOND: '50',
      AGENT_MESSAGE_BURST: '20',
    }));
  });
  afterAll(async () => server?.close());

  it('closes with 1008 an agent whose waiting messages pass twice the byte bound', async () => {
    const agent = await onlineAgent(server.url, await enrolled('pc-chatty'));
    // one activity message of about 20 KiB: more than the 16 KiB this agent may have waiting
    agent.send({
      type: 'activity',
      messageId: 'big',
      events: Array.from({ length: 150 }, (_, i) => ({
        eventType: 'login' as const,
        userName: `user-${i}-${'x'.repeat(60)}`,
        sessionId: `s-${i}`,
        timestamp: new Date().toISOString(),
      })),
    });
    expect((await agent.waitForClose()).code).toBe(AGENT_CLOSE.policyViolation);
    expect(agent.ofType('ack')).toEqual([]);
  });

  it('lets a newer inventory replace one still waiting, and acknowledges both', async () => {
    const creds = await enrolled('pc-inventory');
    const agent = await onlineAgent(server.url, creds);
    for (let i = 0; i < 30; i++) {
      agent.send({
        type: 'inventory',
        messageId: `inv-${i}`,
        collectedAt: new Date().toISOString(),
        software: [
          { name: 'Tool', displayName: null, publisher: null, version: `1.${i}`, installDate: null },
        ],
      });
    }
    await agent.waitFor('ack', () => agent.ofType('ack').length === 30);
    expect(agent.closeCode).toBeNull();
    expect(new Set(agent.ofType('ack').map((m) => m.messageId)).size).toBe(30);
    // the newest inventory is the one that counts
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const software = await server.database.db
      .select({ version: deviceSoftware.version })
      .from(deviceSoftware)
      .where(eq(deviceSoftware.deviceId, row!.id));
    expect(software).toEqual([{ version: '1.29' }]);
    await agent.close();
  });

  it('slows an agent resending a large outbox (rate, backpressure) instead of cutting it off', async () => {
    const agent = await onlineAgent(server.url, await enrolled('pc-outbox'));
    for (let i = 0; i < 60; i++) {
      agent.send(login(i));
    }
    await agent.waitFor('ack', () => agent.ofType('ack').length === 60);
    expect(agent.closeCode).toBeNull();
    await agent.close();
  });
});

describe('returning agents: admission by hellos in flight', () => {
  let server: TestServer;
  let enrolled: (hostname: string) => Promise<EnrollResult>;

  beforeAll(async () => {
    // one agent at a time between its hello and its inventory, held as long as it takes
    // (and a budget of 0.8/s, so the queue bound is eight hellos: 10 s at that rate)
    ({ server, enrolled } = await setUp({
      AGENT_HELLOS_IN_FLIGHT: '1',
      AGENT_HELLO_HOLD_MS: '60000',
      AGENT_UPGRADES_PER_SECOND: '0.8',
    }));
  });
  afterAll(async () => server?.close());

  it('welcomes the next agent once the one before stored its inventory or left, and refuses upgrades while the queue is long', async () => {
    const creds = await Promise.all(Array.from({ length: 10 }, (_, i) => enrolled(`pc-return-${i}`)));
    const first = await onlineAgent(server.url, creds[0]!);
    const queued = [];
    for (const c of creds.slice(1, 9)) {
      const socket = connectAgentSocket(server.url, c.device_guid, c.agent_secret);
      await socket.opened;
      socket.send(hello());
      queued.push(socket);
    }
    // eight hellos wait: the next upgrade is refused, with a time to come back
    const last = creds[9]!;
    const refused = await eventually(async () => {
      const socket = connectAgentSocket(server.url, last.device_guid, last.agent_secret);
      try {
        await socket.opened;
        await socket.close();
        return null;
      } catch (err) {
        return err instanceof UpgradeRefused ? err : null;
      }
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(queued.filter((s) => s.ofType('welcome').length > 0)).toEqual([]);

    // the first agent's inventory gives its place to the next in line, and only to it
    first.send({
      type: 'inventory',
      messageId: 'return-0',
      collectedAt: new Date().toISOString(),
      facts: { hostname: 'pc-return-0' },
    });
    await first.waitFor('ack');
    await queued[0]!.waitFor('welcome');
    expect(queued.slice(1).filter((s) => s.ofType('welcome').length > 0)).toEqual([]);
    // a socket that closes gives its place back too
    await queued[0]!.close();
    await queued[1]!.waitFor('welcome');
    expect(queued.slice(2).filter((s) => s.ofType('welcome').length > 0)).toEqual([]);
    await Promise.all([first, ...queued].map((s) => s.close()));
  });
});
