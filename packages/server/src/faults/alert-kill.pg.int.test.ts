import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ChannelCreated } from '@outpost/contract/notification-channels';
import { connectAgentSocket, eventually, facts, hello, throwawayDatabase } from '../../test/support/live';
import { freePort, sleep, startServerProcess, stopWithTest } from '../../test/support/faults';
import type { ServerProcess } from '../../test/support/faults';

// Faults (docs/product/monitoring.md#deliveries): the server is killed (SIGKILL) after an alert
// opened and before its notification was sent. The alert and its delivery were written in one
// transaction, so the restarted server sends it, once: the webhook hears it exactly once.

type Envelope<T> = { success: true; data: T };

describe('an alert and a SIGKILL before its notification', () => {
  let server: ServerProcess | null = null;
  let db: Awaited<ReturnType<typeof throwawayDatabase>> | null = null;
  let receiver: http.Server | null = null;
  let client: pg.Client | null = null;
  afterAll(async () => {
    await stopWithTest(server);
    await client?.end();
    await new Promise((r) => (receiver ? receiver.close(r) : r(null)));
    await db?.drop();
  });

  it('is sent exactly once by the restarted server', async () => {
    db = await throwawayDatabase();
    const heard: { delivery: string; body: Record<string, unknown> }[] = [];
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        heard.push({
          delivery: String(req.headers['x-outpost-delivery']),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const port = await freePort();
    const env = { DATABASE_URL: db.url, OUTPOST_DEMO: '1', OUTPOST_DEMO_DEVICES: '0' };
    // the outbox's timer is slow: only the wake after the alert (250 ms later) would send it
    server = await startServerProcess(port, { ...env, NOTIFY_OUTBOX_INTERVAL_MS: '300000' });
    const api = async <T>(method: string, path: string, token: string | null, body?: unknown) => {
      const res = await fetch(`${server!.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return (await res.json()) as Envelope<T>;
    };
    const token = (
      await api<{ token: string }>('POST', '/api/customer/auth/dev', null, { email: 'admin@acme.example' })
    ).data.token;
    await api<ChannelCreated>('POST', '/api/customer/notification-channels', token, {
      name: 'Kill hook',
      kind: 'webhook',
      config: { url: hookUrl },
    });
    const enrolment = await api<{ token: string }>(
      'POST',
      '/api/customer/agents/enrollment-tokens',
      token,
      {},
    );
    const creds = (
      await api<{ device_guid: string; agent_secret: string }>('POST', '/api/agent/enroll', null, {
        token: enrolment.data.token,
        facts: facts({ hostname: 'killed-01' }),
      })
    ).data;

    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const agent = connectAgentSocket(server.url, creds.device_guid, creds.agent_secret);
    await agent.opened;
    agent.send(
      hello({ hostname: 'killed-01', restartedAfterCrash: { at: new Date().toISOString(), reason: 'test' } }),
    );
    // the alert's transaction committed: kill at once, before the wake sends it
    let alertId: number | null = null;
    for (const deadline = Date.now() + 10_000; alertId === null && Date.now() < deadline; await sleep(5)) {
      const r = await client.query<{ id: number }>(`select id from alerts where condition = 'agent_crash'`);
      alertId = r.rows[0]?.id ?? null;
    }
    await server.kill();
    await agent.close();
    const before = await client.query<{ status: string }>(
      `select status from notification_deliveries where event = 'alert'`,
    );
    expect(before.rows.map((r) => r.status)).toEqual(['pending']);
    expect(heard).toHaveLength(0);

    server = await startServerProcess(port, { ...env, NOTIFY_OUTBOX_INTERVAL_MS: '100' });
    const told = await eventually(() => Promise.resolve(heard[0] ?? null), 10_000);
    expect((told.body.data as { alert_id: number }).alert_id).toBe(alertId);
    await new Promise((r) => setTimeout(r, 1000));
    expect(heard).toHaveLength(1);
    const after = await client.query<{ status: string; attempts: number }>(
      `select status, attempts from notification_deliveries where event = 'alert'`,
    );
    expect(after.rows).toEqual([{ status: 'delivered', attempts: 1 }]);
  }, 120_000);
});
