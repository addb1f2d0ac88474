import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnrollmentToken, eventually, startTestServer } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { verifyWebhookSignature } from '@outpost/server/lib/webhook-signature';
import { startFleet } from '@outpost/agent/sim/fleet';
import type { Fleet } from '@outpost/agent/sim/fleet';

// Event webhooks from a fleet's life (docs/product/webhooks.md#events): simulated agents enrol,
// come online, run a deployment that completes and one that fails (which opens an alert), and go
// offline; a real receiver on loopback verifies each request's signature and records its event.

type Envelope<T> = { success: true; data: T };
type Received = { event: string; verified: boolean; data: Record<string, unknown> };

describe('event webhooks from a fleet, end to end', () => {
  let server: TestServer;
  let admin: string;
  let fleet: Fleet | null = null;
  let receiver: http.Server;
  let secret = '';
  const received: Received[] = [];
  const of = (event: string) => received.filter((r) => r.event === event);

  beforeAll(async () => {
    server = await startTestServer({
      env: { NOTIFY_OUTBOX_INTERVAL_MS: '100', DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' },
    });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const check = verifyWebhookSignature({
          secret,
          timestamp: req.headers['x-outpost-timestamp'] as string | undefined,
          signature: req.headers['x-outpost-signature'] as string | undefined,
          body,
        });
        const parsed = JSON.parse(body) as { event: string; data: Record<string, unknown> };
        received.push({ event: parsed.event, verified: check.ok, data: parsed.data });
        res.writeHead(check.ok ? 204 : 401).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fleet`;
    const created = await server.request<Envelope<{ signing_secret: string }>>(
      'POST',
      '/api/customer/webhooks',
      {
        token: admin,
        body: {
          name: 'Fleet life',
          url,
          events: [
            'device.enrolled',
            'device.online',
            'device.offline',
            'deployment.created',
            'deployment.started',
            'deployment.completed',
            'deployment.failed',
            'alert.opened',
          ],
        },
      },
    );
    expect(created.status).toBe(200);
    secret = created.body.data.signing_secret;
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
    await new Promise((r) => receiver?.close(r));
  });

  async function packageWith(name: string, command: string): Promise<number> {
    const pkg = await server.request<Envelope<{ id: number }>>('POST', '/api/customer/deployment-packages', {
      token: admin,
      body: { name, target_os: 'windows' },
    });
    await server.request('POST', `/api/customer/deployment-packages/${pkg.body.data.id}/steps`, {
      token: admin,
      body: { step_name: 'Run', step_type: 'CMD', step_details: { command } },
    });
    return pkg.body.data.id;
  }

  it('tells of devices enrolling and coming online, deployments completing and failing, an alert, and devices going offline', async () => {
    const enrolment = await createEnrollmentToken(server, admin);
    fleet = await startFleet({
      server: server.url,
      tokens: [enrolment.token],
      devices: 4,
      seed: 7,
      tickMs: 60_000,
      loginChance: 0,
      disconnectChance: 0,
      failureRate: 0,
      stepDurationMs: { min: 50, max: 100 },
    });
    const guids = fleet.agents.map((a) => a.deviceGuid);
    await eventually(() => Promise.resolve(of('device.online').length >= 4), 30_000);
    expect(
      of('device.enrolled')
        .map((r) => r.data.device_guid)
        .sort(),
    ).toEqual([...guids].sort());
    // the packages below are for Windows: the fleet's Windows machines run them
    const windows = fleet.agents.filter((a) => a.device.facts.osType === 'windows').map((a) => a.deviceGuid);
    expect(windows.length).toBeGreaterThan(0);

    const ids = (
      await server.request<Envelope<{ data: { id: number; device_guid: string | null }[] }>>(
        'GET',
        '/api/customer/devices?limit=100',
        { token: admin },
      )
    ).body.data.data
      .filter((d) => d.device_guid !== null && windows.includes(d.device_guid))
      .map((d) => d.id);
    expect(ids).toHaveLength(windows.length);

    for (const [name, command] of [
      ['Webhook fleet ok', 'echo fine'],
      ['Webhook fleet fails', 'echo sim-fail=100%'],
    ] as const) {
      const job = await server.request<Envelope<{ id: number }>>('POST', '/api/customer/deployments', {
        token: admin,
        body: { package_id: await packageWith(name, command), device_ids: ids, job_name: name },
      });
      expect(job.status).toBe(200);
    }
    await eventually(
      () => Promise.resolve(of('deployment.completed').length >= 1 && of('deployment.failed').length >= 1),
      30_000,
    );
    // each event is its own delivery from the outbox: a job's start may arrive after another's end
    await eventually(
      () => Promise.resolve(of('deployment.created').length >= 2 && of('deployment.started').length >= 2),
      30_000,
    );
    expect(of('deployment.created')).toHaveLength(2);
    await eventually(() => Promise.resolve(of('alert.opened').length >= 1), 30_000);

    await fleet.stop();
    fleet = null;
    await eventually(() => Promise.resolve(of('device.offline').length >= 4), 30_000);
    expect(received.every((r) => r.verified)).toBe(true);
  }, 120_000);
});
