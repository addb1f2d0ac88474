import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrowawayDatabase, PG_BASE } from '@outpost/server/test-support';
import { freePort, startServerProcess, stopWithTest } from '@outpost/server/test-support/faults';
import type { ServerProcess } from '@outpost/server/test-support/faults';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent, DeviceBackend } from '@outpost/agent/agent';
import type { Logger } from '@outpost/agent/connection';
import { enrollDevice } from '@outpost/agent/enroll';
import { createMemoryOutbox } from '@outpost/agent/outbox';
import { createRng } from '@outpost/agent/sim/rng';
import { createVirtualDevice, virtualBackend } from '@outpost/agent/sim/virtual-device';
import { enrolmentToken, query, signIn, until } from '../support/agent-faults';

// Faults: a server restart during a reconnect storm. 1,000 simulated agents (the
// simulator's virtual devices on the real agent library, in this process) are connected; the
// server is killed with SIGKILL and started again on the same PostgreSQL database. Every agent
// comes back on its own (exponential backoff with full jitter; the server's upgrade budget answers
// 503 to the excess, which backs off again), each device once. Times are printed, not asserted.

const AGENTS = 1000;
const BACKOFF = { baseMs: 500, capMs: 10_000 };
const UPGRADES = { AGENT_UPGRADES_PER_SECOND: '100', AGENT_UPGRADE_BURST: '200' };

/** The virtual device's hello; inventories carry only the facts, to spend the CPU on connections. */
function lightBackend(index: number): DeviceBackend {
  const device = createVirtualDevice(createRng(1000 + index), index, { prefix: 'STORM', subnet: 20 });
  const full = virtualBackend(device);
  return {
    hello: () => full.hello(),
    inventory: async () => ({ facts: (await full.inventory('hardware')).facts }),
  };
}

describe('a server restart during a reconnect storm of 1,000 agents', () => {
  let db: Awaited<ReturnType<typeof createThrowawayDatabase>>;
  let server: ServerProcess | null = null;
  const agents: Agent[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-storm-'));
  let port = 0;
  const env = () => ({
    DATABASE_URL: db.url,
    DATA_DIR: path.join(dir, 'data'),
    OUTPOST_DEMO: '1',
    OUTPOST_DEMO_DEVICES: '0',
    ENROLL_PER_ADDRESS_PER_MINUTE: '10000',
    ENROLL_PER_TOKEN_PER_MINUTE: '10000',
    ...UPGRADES,
  });

  beforeAll(async () => {
    db = await createThrowawayDatabase(PG_BASE);
    port = await freePort();
    server = await startServerProcess(port, env());
  }, 60_000);
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await stopWithTest(server);
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('brings every agent back after the restart, each device once', async () => {
    const url = server!.url;
    const admin = await signIn(url, 'admin@acme.example');
    const token = await enrolmentToken(url, admin.token);
    await query(db.url, 'update tenants set max_agents = $1 where id = $2', [AGENTS, admin.user.tenant_id]);
    let refused = 0;
    const log: Logger = {
      info: () => undefined,
      warn: (msg) => {
        if (msg.startsWith('server refused the connection')) {
          refused++;
        }
      },
      error: () => undefined,
    };

    const enrolStart = Date.now();
    const creds = new Array<Awaited<ReturnType<typeof enrollDevice>>>(AGENTS);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < AGENTS) {
          const i = next++;
          creds[i] = await enrollDevice(url, token, {
            hostname: `STORM-${String(i).padStart(4, '0')}`,
            osType: 'windows',
            osVersion: 'Windows 11 Pro 23H2',
            agentVersion: '1.0.0-storm',
          });
        }
      }),
    );
    const enrolMs = Date.now() - enrolStart;
    creds.forEach((c, i) => {
      const agent = createAgent({
        server: url,
        deviceGuid: c.device_guid,
        agentSecret: c.agent_secret,
        outbox: createMemoryOutbox(),
        backend: lightBackend(i),
        executor: new RecordingExecutor(),
        deployments: () => Promise.reject(new Error('no deployments in this test')),
        backoff: BACKOFF,
        log,
      });
      agents.push(agent);
      agent.start();
    });
    const connected = () => agents.filter((a) => a.connection.state === 'connected').length;
    const firstStart = Date.now();
    await until(() => Promise.resolve(connected() === AGENTS), 120_000);
    const firstMs = Date.now() - firstStart;
    const before = new Map(
      (
        await query<{ id: number; connection_id: string }>(db.url, 'select id, connection_id from devices')
      ).map((r) => [r.id, r.connection_id]),
    );
    expect(before.size).toBe(AGENTS);

    await server!.kill();
    const killedAt = Date.now();
    await until(() => Promise.resolve(connected() === 0), 30_000);
    refused = 0;
    server = await startServerProcess(port, env());
    const upAt = Date.now();
    const counts: string[] = [];
    await until(() => {
      const n = connected();
      counts.push(`${Math.round((Date.now() - upAt) / 1000)}s:${n}`);
      return Promise.resolve(n === AGENTS);
    }, 150_000);
    const allBackAt = Date.now();

    // Each device once, every one on a new connection, online.
    const after = await query<{ id: number; connection_id: string; status: string }>(
      db.url,
      'select id, connection_id, status from devices',
    );
    expect(after).toHaveLength(AGENTS);
    expect(after.filter((r) => r.connection_id === before.get(r.id))).toEqual([]);
    expect(after.filter((r) => r.status === 'offline')).toEqual([]);
    console.log(
      `[faults] reconnect storm: ${AGENTS} agents (backoff base ${BACKOFF.baseMs} ms, cap ${BACKOFF.capMs} ms; ` +
        `server upgrade budget ${UPGRADES.AGENT_UPGRADES_PER_SECOND}/s, burst ${UPGRADES.AGENT_UPGRADE_BURST}). ` +
        `Enrolment ${enrolMs} ms, first connect of all ${firstMs} ms. Killed; server healthy again ${upAt - killedAt} ms ` +
        `after the kill; all ${AGENTS} back ${allBackAt - upAt} ms after that; ${refused} upgrades refused (503) meanwhile. ` +
        `Connected over time: ${counts.filter((_, i) => i % 10 === 0).join(' ')}`,
    );
  }, 300_000);
});
