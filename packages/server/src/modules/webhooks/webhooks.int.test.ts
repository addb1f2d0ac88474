import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody, ListData } from '@outpost/contract/envelope';
import { webhookMessages } from '@outpost/contract/webhooks';
import type { Webhook, WebhookCreated, WebhookDelivery } from '@outpost/contract/webhooks';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { eventually } from '../../../test/support/live';
import { devices } from '../../db/schema/index';
import { createSecretBox } from '../../lib/secret-box';
import { verifyWebhookSignature } from '../../lib/webhook-signature';
import { createOutbox } from '../notifications/outbox';

// Event webhooks against a real receiver on loopback (docs/product/webhooks.md): it verifies every
// request with the documented helper, can fail on demand, and records what it was sent.

type Envelope<T> = { success: true; data: T };
type Hit = { headers: http.IncomingHttpHeaders; body: string; receivedAt: number; verified: boolean };
const API = '/api/customer/webhooks';

describe('event webhooks', () => {
  let server: TestServer;
  let admin: string;
  let receiver: http.Server;
  let hookUrl: string;
  const hits: Hit[] = [];
  let failNext = 0;
  let acmeTenantId = 0;
  /** the secret the receiver verifies with (the subscription under test's) */
  let secret = '';

  beforeAll(async () => {
    server = await startTestServer({ env: { NOTIFY_OUTBOX_INTERVAL_MS: '100' } });
    acmeTenantId = (await server.seedDemo())!.acmeTenantId;
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
        hits.push({ headers: req.headers, body, receivedAt: Date.now(), verified: check.ok });
        if (!check.ok) {
          res.writeHead(401).end(check.reason);
        } else if (failNext > 0) {
          failNext--;
          res.writeHead(500).end('down');
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => receiver?.close(r));
  });

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<T>(method, path, { token, body });
  const deliveries = async (id: number, page = 1) =>
    (await call<Envelope<ListData<WebhookDelivery>>>('GET', `${API}/${id}/deliveries?page=${page}`)).body
      .data;
  const hitsOf = (event: string) => hits.filter((h) => h.headers['x-outpost-event'] === event);

  async function subscribe(name: string, events: string[], extra: Record<string, unknown> = {}) {
    const res = await call<Envelope<WebhookCreated>>('POST', API, { name, url: hookUrl, events, ...extra });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  it('a subscription: its generated secret is answered once, and a test is signed with it at send time', async () => {
    const created = await subscribe('Ops events', ['user.added', 'device.deleted']);
    secret = created.signing_secret!;
    expect(secret.length).toBeGreaterThanOrEqual(24);
    expect(created).toMatchObject({
      has_secret: true,
      enabled: true,
      events: ['device.deleted', 'user.added'],
    });
    // never answered again
    const read = await call<Envelope<Webhook>>('GET', `${API}/${created.id}`);
    expect(JSON.stringify(read.body)).not.toContain(secret);
    const listed = await call<Envelope<{ data: Webhook[] }>>('GET', API);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const sent = await call<Envelope<{ delivery_id: number }>>('POST', `${API}/${created.id}/test`);
    expect(sent.status).toBe(200);
    await eventually(() => Promise.resolve(hitsOf('webhook.test').length >= 1));
    expect(hitsOf('webhook.test')).toHaveLength(1);
    const hit = hitsOf('webhook.test')[0]!;
    expect(hit.verified).toBe(true);
    expect(hit.headers['x-outpost-delivery']).toBe(String(sent.body.data.delivery_id));
    const body = JSON.parse(hit.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      delivery_id: sent.body.data.delivery_id,
      event: 'webhook.test',
      tenant: 'Acme Corp',
    });
    await eventually(async () => (await deliveries(created.id)).data[0]?.status === 'delivered');
    const log = await deliveries(created.id);
    expect(log.data[0]).toMatchObject({ status: 'delivered', last_code: 204, attempts: 1 });
    expect(log.pagination.total).toBe(1);
  });

  it('a replayed or altered request fails the documented check', () => {
    const hit = hitsOf('webhook.test')[0]!;
    const timestamp = hit.headers['x-outpost-timestamp'] as string;
    const signature = hit.headers['x-outpost-signature'] as string;
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    const at = Number(timestamp);
    const check = (over: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ secret, timestamp, signature, body: hit.body, nowSeconds: at, ...over });
    expect(check({})).toEqual({ ok: true });
    expect(check({ nowSeconds: at + 300 })).toEqual({ ok: true });
    // five minutes and a second later, the same request is a replay
    expect(check({ nowSeconds: at + 301 })).toEqual({ ok: false, reason: 'stale' });
    expect(check({ body: hit.body.replace('webhook.test', 'user.added') })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    // a replayed body with a fresh timestamp does not match the signature made for the old one
    expect(check({ timestamp: String(at + 60), nowSeconds: at + 60 })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(check({ secret: 'another-secret-of-someone' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ timestamp: undefined })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('an event is delivered to the subscriptions that want it, and not to the others', async () => {
    const other = await subscribe('Alerts only', ['alert.opened'], { secret: 'alerts-only-secret-0123' });
    const [ops] = (await call<Envelope<{ data: Webhook[] }>>('GET', API)).body.data.data.filter(
      (w) => w.name === 'Ops events',
    );
    const res = await call('POST', '/api/customer/users', {
      email: 'new-hire@acme.example',
      name: 'New Hire',
    });
    expect(res.status).toBe(200);
    await eventually(() => Promise.resolve(hitsOf('user.added').length >= 1));
    expect(hitsOf('user.added')).toHaveLength(1);
    const hit = hitsOf('user.added')[0]!;
    expect(hit.verified).toBe(true);
    const body = JSON.parse(hit.body) as { data: { email: string }; occurred_at: string };
    expect(body.data.email).toBe('new-hire@acme.example');
    expect((await deliveries(ops!.id)).data.map((d) => d.event)).toContain('user.added');
    expect((await deliveries(other.id)).data).toEqual([]);
  });

  it('a failed attempt is retried after its backoff, signed again with the retry time', async () => {
    const [ops] = (await call<Envelope<{ data: Webhook[] }>>('GET', API)).body.data.data.filter(
      (w) => w.name === 'Ops events',
    );
    failNext = 1;
    const sent = await call<Envelope<{ delivery_id: number }>>('POST', `${API}/${ops!.id}/test`);
    const id = sent.body.data.delivery_id;
    await eventually(async () => (await deliveries(ops!.id)).data.find((d) => d.id === id)?.attempts === 1);
    expect((await deliveries(ops!.id)).data.find((d) => d.id === id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_code: 500,
    });
    const pending = (await deliveries(ops!.id)).data.find((d) => d.id === id)!;
    // the first retry comes 30 s later
    expect(Date.parse(pending.next_attempt_at!) - Date.parse(pending.created_at)).toBeGreaterThanOrEqual(
      29_000,
    );
    // the outbox's clock moved 31 s on instead of waiting
    const later = Date.now() + 31_000;
    const outbox = createOutbox({
      db: server.database.db,
      box: createSecretBox(server.config.sessionSecret, 'notification channel secrets'),
      now: () => later,
      log: server.app.log,
    });
    await outbox.pass();
    const tries = hits.filter((h) => h.headers['x-outpost-delivery'] === String(id));
    expect(tries).toHaveLength(2);
    expect(tries.every((t) => t.body === tries[0]!.body)).toBe(true);
    // the timestamp is each attempt's send time, not the event's
    expect(Number(tries[1]!.headers['x-outpost-timestamp'])).toBe(Math.floor(later / 1000));
    expect(Number(tries[1]!.headers['x-outpost-timestamp'])).toBeGreaterThan(
      Number(tries[0]!.headers['x-outpost-timestamp']) + 29,
    );
    expect((await deliveries(ops!.id)).data.find((d) => d.id === id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_code: 204,
    });
  });

  it('a delivery of the log is sent again as a new delivery with the same body', async () => {
    const [ops] = (await call<Envelope<{ data: Webhook[] }>>('GET', API)).body.data.data.filter(
      (w) => w.name === 'Ops events',
    );
    const first = (await deliveries(ops!.id)).data.find((d) => d.event === 'user.added')!;
    const again = await call<Envelope<{ delivery_id: number }>>(
      'POST',
      `${API}/${ops!.id}/deliveries/${first.id}/redeliver`,
    );
    expect(again.status).toBe(200);
    const newId = again.body.data.delivery_id;
    await eventually(() => Promise.resolve(hitsOf('user.added').length >= 2));
    expect(hitsOf('user.added')).toHaveLength(2);
    const [a, b] = hitsOf('user.added').map((h) => JSON.parse(h.body) as Record<string, unknown>);
    expect(b).toMatchObject({ delivery_id: newId, data: a!.data, occurred_at: a!.occurred_at });
    await eventually(
      async () => (await deliveries(ops!.id)).data.find((d) => d.id === newId)?.status === 'delivered',
    );
    expect((await deliveries(ops!.id)).data.find((d) => d.id === newId)).toMatchObject({
      redelivery_of: first.id,
    });
    const audit = await call<Envelope<{ data: { action: string }[] }>>(
      'GET',
      '/api/customer/audit?action=Redeliver%20Webhook',
    );
    expect(audit.body.data.data).toHaveLength(1);
  });

  it('every audit entry is an event, and a deleted device is one too', async () => {
    await subscribe('Audit trail', ['audit.entry_written', 'device.deleted'], { secret });
    const [device] = await server.database.db
      .insert(devices)
      .values({
        tenantId: acmeTenantId,
        hostname: 'hook-device',
        deviceGuid: crypto.randomUUID(),
        secretHash: 'not-a-secret',
        status: 'offline',
        osType: 'windows',
      })
      .returning({ id: devices.id });
    expect((await call('DELETE', `/api/customer/devices/${device!.id}`)).status).toBe(200);
    await eventually(() => Promise.resolve(hitsOf('device.deleted').length >= 1));
    const deleted = JSON.parse(hitsOf('device.deleted')[0]!.body) as { data: { device_id: number } };
    expect(deleted.data.device_id).toBe(device!.id);
    await eventually(() =>
      Promise.resolve(hitsOf('audit.entry_written').some((h) => h.body.includes('"Delete Device"'))),
    );
    const entry = hitsOf('audit.entry_written').find((h) => h.body.includes('"Delete Device"'))!;
    expect(entry.verified).toBe(true);
    expect(JSON.parse(entry.body)).toMatchObject({
      event: 'audit.entry_written',
      data: { action: 'Delete Device', resource_type: 'device', resource_id: String(device!.id) },
    });
  });

  it('a subscription to audit entries can be deleted: its own deletion is an entry it is no longer told of', async () => {
    const created = await subscribe('Audit, then gone', ['audit.entry_written']);
    // another audit entry after the subscription's own: the tenant's subscriptions are cached
    // with this one in them when it is deleted
    expect((await call('POST', '/api/customer/tags', { name: 'Hook filler' })).status).toBe(200);
    const removed = await call<{ data: { id: number } }>('DELETE', `${API}/${created.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.id).toBe(created.id);
    expect((await call('GET', `${API}/${created.id}`)).status).toBe(404);
    const audit = await call<{ data: { data: unknown[] } }>(
      'GET',
      '/api/customer/audit?action=Delete%20Webhook',
    );
    expect(audit.body.data.data.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad input with the contract words, and a disabled subscription sends nothing by hand', async () => {
    const noEvents = await call<ApiErrorBody>('POST', API, { name: 'x', url: hookUrl, events: [] });
    expect(noEvents.status).toBe(400);
    expect(JSON.stringify(noEvents.body)).toContain(webhookMessages.eventsRequired);
    const badEvent = await call<ApiErrorBody>('POST', API, { name: 'x', url: hookUrl, events: ['nope'] });
    expect(badEvent.status).toBe(400);
    const short = await call<ApiErrorBody>('POST', API, {
      name: 'x',
      url: hookUrl,
      events: ['user.added'],
      secret: 'short',
    });
    expect(JSON.stringify(short.body)).toContain(webhookMessages.secretLength);
    const dup = await call<ApiErrorBody>('POST', API, {
      name: 'OPS EVENTS',
      url: hookUrl,
      events: ['user.added'],
    });
    expect(dup.status).toBe(409);
    const off = await subscribe('Paused', ['user.removed'], { enabled: false });
    const test = await call<ApiErrorBody>('POST', `${API}/${off.id}/test`);
    expect(test.status).toBe(409);
    expect(test.body.error).toBe(webhookMessages.disabled);
    const tech = (await server.devSignIn('tech@acme.example')).token;
    expect((await call('GET', API, undefined, tech)).status).toBe(403);
    const globex = (await server.devSignIn('admin@globex.example')).token;
    expect((await call('GET', `${API}/${off.id}`, undefined, globex)).status).toBe(404);
    expect((await call('DELETE', `${API}/${off.id}`)).status).toBe(200);
  });
});
