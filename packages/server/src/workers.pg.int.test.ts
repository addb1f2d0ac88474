import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client';
import { createTenant } from './modules/tenants/tenants.service';
import {
  connectPortalSocket,
  eventually,
  facts,
  onlineAgent,
  REDIS_URL,
  throwawayDatabase,
} from '../test/support/live';
import type { PortalSocket } from '../test/support/live';
import { freePort, sleep, startServerProcess, stopWithTest } from '../test/support/faults';
import type { ServerProcess } from '../test/support/faults';

// Worker mode (WEB_WORKERS, workers.ts, docs/decisions/2026-11-27-fifty-thousand-agents.md): one
// instance as several processes on one port. The workers accept from the shared socket, so an
// agent and the portal sockets following it may land on different workers; its status must
// reach every socket whichever worker holds it (through Redis, as between instances). A kill -9 of the primary ends
// every worker, as a kill of one process would.

type Envelope<T> = { success: true; data: T };

/** The live processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Envelope<T>).data;
}

describe('one instance as two workers (WEB_WORKERS=2)', () => {
  let server: ServerProcess | null = null;
  let db: Awaited<ReturnType<typeof throwawayDatabase>> | null = null;
  const sockets: PortalSocket[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-workers-'));
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await stopWithTest(server);
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends an agent’s status to portal sockets on both workers, and a kill of the primary ends them', async () => {
    db = await throwawayDatabase();
    const database = await openDatabase({ databaseUrl: db.url });
    await createTenant(database.db, {
      name: 'Workers',
      plan: 'Enterprise',
      maxAgents: null,
      licenseExpiry: null,
      adminEmail: 'admin@workers.example',
      adminName: 'Admin',
    });
    await database.close();
    server = await startServerProcess(
      await freePort(),
      {
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        WEB_WORKERS: '2',
        REDIS_URL,
        REDIS_CHANNEL_PREFIX: `workers-test-${process.pid}-${Date.now()}:`,
      },
      150_000,
    );
    const primary = server.child.pid!;
    const workers = await eventually(() =>
      Promise.resolve(childrenOf(primary).length === 2 && childrenOf(primary)),
    );
    const session = await post<{ token: string; user: { id: number; tenant_id: number } }>(
      `${server.url}/api/customer/auth/dev`,
      { email: 'admin@workers.example' },
    );
    const auth = { tenantId: session.user.tenant_id, userId: session.user.id, token: session.token };
    const { token } = await post<{ token: string }>(
      `${server.url}/api/customer/agents/enrollment-tokens`,
      {},
      session.token,
    );
    const creds = await post<{ device_guid: string; agent_secret: string }>(
      `${server.url}/api/agent/enroll`,
      {
        token,
        facts: facts({ hostname: 'WORKERS-1' }),
      },
    );
    const agent = await onlineAgent(server.url, creds);
    // eight sockets, spread by the kernel over the two workers
    for (let i = 0; i < 8; i++) {
      const s = connectPortalSocket(server.url, auth);
      sockets.push(s);
      await s.opened;
      s.send({ type: 'subscribe', payload: { subscriptionKey: `device:${creds.device_guid}` } });
      await s.waitFor('subscribed');
    }
    agent.send({ type: 'fault', active: true, message: 'disk on fire' });
    for (const s of sockets) {
      const update = await s.waitFor('device_update', (m) => m.payload.status === 'error');
      expect(update.payload.deviceId).toBe(creds.device_guid);
    }

    await server.kill();
    await eventually(() =>
      Promise.resolve(workers.every((pid) => !fs.existsSync(`/proc/${pid}/stat`) || isZombie(pid))),
    );
    await sleep(100);
  }, 300_000);
});

function isZombie(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
