import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CAPABILITIES } from '@outpost/contract/agent-protocol';
import type { AlertListResponse } from '@outpost/contract/alerts';
import type { MonitoringPolicy } from '@outpost/contract/checks';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// docs/product/monitoring.md#alerts: a check that flaps (failing, passing, failing, passing …)
// stays one alert, counted, and each channel hears it open once and resolve once; a resent
// check_results message (its ack lost) changes nothing.

type Envelope<T> = { success: true; data: T };

describe('a flapping check', () => {
  let server: TestServer;
  let admin: string;
  let receiver: http.Server;
  const heard: { event: string; alertId: number }[] = [];
  let agent: AgentSocket;

  const call = async <T>(method: string, url: string, body?: unknown) => {
    const res = await server.request<Envelope<T>>(method, url, {
      token: admin,
      ...(body !== undefined && { body }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { NOTIFY_OUTBOX_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          event: string;
          data: { alert_id: number };
        };
        heard.push({ event: body.event, alertId: body.data.alert_id });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    await call('POST', '/api/customer/notification-channels', {
      name: 'Flap hook',
      kind: 'webhook',
      config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` },
    });
  });
  afterAll(async () => {
    await agent?.close();
    await new Promise((r) => receiver.close(r));
    await server?.close();
  });

  it('is one alert, told open once and resolved once', async () => {
    const policy = await call<MonitoringPolicy>('POST', '/api/customer/monitoring-policies', {
      name: 'Flappy',
      target_type: 'tenant',
      checks: [
        {
          name: 'Flappy script',
          config: { type: 'script', shell: 'sh', script: 'exit 2' },
          severity: 'critical',
        },
      ],
    });
    const checkId = policy.checks[0]!.id;
    const token = (await createEnrollmentToken(server, admin)).token;
    const creds = (await enroll(server, token, facts({ hostname: 'flappy-01' }))).body.data;
    agent = await onlineAgent(server.url, creds, {
      hostname: 'flappy-01',
      capabilities: [AGENT_CAPABILITIES.checks],
    });
    await agent.waitFor('checks');
    const report = async (n: number, state: 'failing' | 'passing') => {
      agent.send({
        type: 'check_results',
        messageId: `flap-${n}`,
        results: [{ checkId, state, output: state, checkedAt: new Date().toISOString() }],
      });
      await agent.waitFor(
        'ack',
        (m) => m.messageId === `flap-${n}` || (m.messageIds ?? []).includes(`flap-${n}`),
      );
    };
    const states = ['failing', 'passing', 'failing', 'passing', 'failing', 'passing'] as const;
    for (const [n, state] of states.entries()) {
      await report(n, state);
    }
    // the last message again, as after a lost ack
    await report(states.length - 1, 'passing');
    const list = await call<AlertListResponse>(
      'GET',
      `/api/customer/alerts?device=${creds.device_guid}&state=all`,
    );
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ state: 'resolved', occurrences: 3, resolved_by: null });
    const alertId = list.data[0]!.id;
    await eventually(() =>
      Promise.resolve(heard.filter((h) => h.alertId === alertId).length >= 2 ? true : null),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(
      heard
        .filter((h) => h.alertId === alertId)
        .map((h) => h.event)
        .sort(),
    ).toEqual(['alert', 'alert_resolved']);
  });
});
