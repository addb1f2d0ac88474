import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import { channelMessages } from '@outpost/contract/notification-channels';
import type {
  ChannelCreated,
  NotificationChannel,
  NotificationDelivery,
} from '@outpost/contract/notification-channels';
import type { Site } from '@outpost/contract/sites';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { eventually } from '../../../test/support/live';
import { notificationChannels, notificationDeliveries } from '../../db/schema/index';

// Notification channels against real receivers (docs/product/monitoring.md#notification-channels,
// #deliveries): a webhook endpoint on loopback that verifies the signature and can fail, and a
// real SMTP server (smtp-server) whose messages are parsed.

type Envelope<T> = { success: true; data: T };
type Hit = { headers: http.IncomingHttpHeaders; body: string };
const API = '/api/customer/notification-channels';

describe('notification channels', () => {
  let server: TestServer;
  let admin: string;
  let receiver: http.Server;
  let hookUrl: string;
  const hits: Hit[] = [];
  let failNext = 0;
  let smtp: SMTPServer;
  let smtpPort: number;
  const mails: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { NOTIFY_OUTBOX_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (failNext > 0) {
          failNext--;
          res.writeHead(500).end('down');
        } else {
          res.writeHead(200).end('ok');
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, cb) {
        return auth.username === 'outpost' && auth.password === 'smtp-pass-123'
          ? cb(null, { user: 'outpost' })
          : cb(new Error('Invalid username or password'));
      },
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push(Buffer.concat(chunks).toString('utf8'));
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => receiver?.close(r));
    await new Promise((r) => smtp?.close(r as () => void));
  });

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<T>(method, path, { token, body });

  async function deliveries(id: number) {
    return (await call<Envelope<{ data: NotificationDelivery[] }>>('GET', `${API}/${id}/deliveries`)).body
      .data.data;
  }
  /** The outbox retries after 30 s: the test brings the retry forward instead of waiting. */
  async function retryNow(deliveryId: number) {
    await server.database.db
      .update(notificationDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(notificationDeliveries.id, deliveryId));
  }

  it('a webhook: its generated secret is answered once, and the test it sends is signed with it', async () => {
    const created = await call<Envelope<ChannelCreated>>('POST', API, {
      kind: 'webhook',
      name: 'Ops hook',
      config: { url: hookUrl },
    });
    expect(created.status).toBe(200);
    const channel = created.body.data;
    const secret = channel.signing_secret!;
    expect(secret.length).toBeGreaterThanOrEqual(24);
    expect(channel.has_secret).toBe(true);
    const read = await call<Envelope<NotificationChannel>>('GET', `${API}/${channel.id}`);
    expect(JSON.stringify(read.body)).not.toContain(secret);
    const [stored] = await server.database.db
      .select()
      .from(notificationChannels)
      .where(eq(notificationChannels.id, channel.id));
    expect(stored!.secret).not.toContain(secret);

    const sent = await call<Envelope<{ delivery_id: number }>>('POST', `${API}/${channel.id}/test`);
    expect(sent.status).toBe(200);
    const hit = await eventually(() => Promise.resolve(hits.at(-1) ?? null));
    const expected = `sha256=${crypto.createHmac('sha256', secret).update(hit.body).digest('hex')}`;
    expect(hit.headers['x-outpost-signature']).toBe(expected);
    expect(hit.headers['x-outpost-delivery']).toBe(String(sent.body.data.delivery_id));
    expect(JSON.parse(hit.body)).toMatchObject({
      event: 'test',
      tenant: 'Acme Corp',
      subject: channelMessages.testSubject,
    });
    const [log] = await eventually(async () => {
      const d = await deliveries(channel.id);
      return d[0]?.status === 'delivered' ? d : null;
    });
    expect(log).toMatchObject({ status: 'delivered', attempts: 1, last_code: 200, event: 'test' });
  });

  it('retries a delivery the endpoint refused, with the same body and id, and redelivers on demand', async () => {
    const channel = (
      await call<Envelope<ChannelCreated>>('POST', API, {
        kind: 'webhook',
        name: 'Flaky hook',
        config: { url: hookUrl, secret: 'my-own-signing-secret' },
      })
    ).body.data;
    expect(channel.signing_secret).toBeUndefined();
    failNext = 1;
    const before = hits.length;
    const { delivery_id } = (
      await call<Envelope<{ delivery_id: number }>>('POST', `${API}/${channel.id}/test`)
    ).body.data;
    const refused = await eventually(async () => {
      const d = (await deliveries(channel.id))[0];
      return d && d.attempts === 1 ? d : null;
    });
    expect(refused).toMatchObject({ status: 'pending', last_code: 500 });
    expect(refused.last_error).toContain('500');
    expect(Date.parse(refused.next_attempt_at!)).toBeGreaterThan(Date.now() + 20_000);
    await retryNow(delivery_id);
    const delivered = await eventually(async () => {
      const d = (await deliveries(channel.id))[0];
      return d?.status === 'delivered' ? d : null;
    });
    expect(delivered.attempts).toBe(2);
    const [first, second] = hits.slice(before);
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['x-outpost-delivery']).toBe(String(delivery_id));
    const signed = `sha256=${crypto.createHmac('sha256', 'my-own-signing-secret').update(second!.body).digest('hex')}`;
    expect(second!.headers['x-outpost-signature']).toBe(signed);

    const again = await call<Envelope<{ delivery_id: number }>>(
      'POST',
      `${API}/${channel.id}/deliveries/${delivery_id}/redeliver`,
    );
    expect(again.status).toBe(200);
    const redelivered = await eventually(async () => {
      const d = (await deliveries(channel.id)).find((x) => x.id === again.body.data.delivery_id);
      return d?.status === 'delivered' ? d : null;
    });
    expect(redelivered.redelivery_of).toBe(delivery_id);
    expect(hits.length - before).toBe(3);
  });

  it('e-mail through a real SMTP server: signed in, the message parsed; the password is never answered', async () => {
    const created = await call<Envelope<ChannelCreated>>('POST', API, {
      kind: 'email',
      name: 'On-call mail',
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: smtpPort,
        smtp_security: 'none',
        smtp_user: 'outpost',
        smtp_password: 'smtp-pass-123',
        from: 'outpost@acme.example',
        to: ['oncall@acme.example', 'lead@acme.example'],
      },
    });
    expect(created.status).toBe(200);
    expect(JSON.stringify(created.body)).not.toContain('smtp-pass-123');
    const id = created.body.data.id;
    await call('POST', `${API}/${id}/test`);
    const raw = await eventually(() => Promise.resolve(mails.at(-1) ?? null));
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe(`[Outpost] ${channelMessages.testSubject}`);
    expect(mail.from?.text).toBe('outpost@acme.example');
    expect(JSON.stringify(mail.to)).toContain('oncall@acme.example');
    expect(JSON.stringify(mail.to)).toContain('lead@acme.example');
    expect(mail.text).toContain('"On-call mail"');
    await eventually(async () => ((await deliveries(id))[0]?.status === 'delivered' ? true : null));

    // a change without the password keeps it; a wrong one is refused by the server and logged
    const kept = await call<Envelope<NotificationChannel>>('PUT', `${API}/${id}`, {
      kind: 'email',
      name: 'On-call mail',
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: smtpPort,
        smtp_security: 'none',
        smtp_user: 'outpost',
        from: 'outpost@acme.example',
        to: ['oncall@acme.example'],
      },
    });
    expect(kept.body.data.has_secret).toBe(true);
    const count = mails.length;
    await call('POST', `${API}/${id}/test`);
    await eventually(() => Promise.resolve(mails.length > count ? true : null));
    await call('PUT', `${API}/${id}`, {
      kind: 'email',
      name: 'On-call mail',
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: smtpPort,
        smtp_security: 'none',
        smtp_user: 'outpost',
        smtp_password: 'wrong-password',
        from: 'outpost@acme.example',
        to: ['oncall@acme.example'],
      },
    });
    await call('POST', `${API}/${id}/test`);
    const refused = await eventually(async () => {
      const d = (await deliveries(id))[0];
      return d && d.attempts === 1 && d.status === 'pending' ? d : null;
    });
    expect(refused.last_code).toBe(535);
  });

  it('refuses bad settings in words, other tenants and site-limited administrators', async () => {
    const bad = await call<ApiErrorBody>('POST', API, {
      kind: 'webhook',
      name: 'x',
      config: { url: 'ftp://host/x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain(channelMessages.urlScheme);
    const meta = await call<ApiErrorBody>('POST', API, {
      kind: 'webhook',
      name: 'x',
      config: { url: 'http://169.254.169.254/latest' },
    });
    expect(meta.status).toBe(400);
    expect(meta.body.error).toContain(channelMessages.urlLinkLocal);
    const slack = await call<ApiErrorBody>('POST', API, {
      kind: 'slack',
      name: 's',
      config: { url: hookUrl },
    });
    expect(slack.status).toBe(400);
    expect(slack.body.error).toContain(channelMessages.slackUrl);
    const noTo = await call<ApiErrorBody>('POST', API, {
      kind: 'email',
      name: 'm',
      config: { smtp_host: 'mail', smtp_port: 25, from: 'a@b.example', to: [] },
    });
    expect(noTo.status).toBe(400);
    expect(noTo.body.error).toContain(channelMessages.recipientsRequired);
    await call('POST', API, { kind: 'teams', name: 'Dup hook', config: { url: hookUrl } });
    const dup = await call<ApiErrorBody>('POST', API, {
      kind: 'teams',
      name: 'dup HOOK',
      config: { url: hookUrl },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe(channelMessages.nameTaken);

    const teams = (
      await call<Envelope<ChannelCreated>>('POST', API, {
        kind: 'teams',
        name: 'Teams',
        config: { url: hookUrl },
      })
    ).body.data;
    const kind = await call<ApiErrorBody>('PUT', `${API}/${teams.id}`, {
      kind: 'slack',
      name: 'Teams',
      config: { url: 'https://hooks.slack.com/services/x' },
    });
    expect(kind.status).toBe(409);
    expect(kind.body.error).toBe(channelMessages.kindFixed);
    const off = await call('PUT', `${API}/${teams.id}`, {
      kind: 'teams',
      name: 'Teams',
      enabled: false,
      config: { url: hookUrl },
    });
    expect(off.status).toBe(200);
    const disabled = await call<ApiErrorBody>('POST', `${API}/${teams.id}/test`);
    expect(disabled.status).toBe(409);
    expect(disabled.body.error).toBe(channelMessages.disabled);

    const globex = (await server.devSignIn('admin@globex.example')).token;
    expect((await call('GET', `${API}/${teams.id}`, undefined, globex)).status).toBe(404);
    expect((await call('POST', `${API}/${teams.id}/test`, undefined, globex)).status).toBe(404);
    expect((await call('DELETE', `${API}/${teams.id}`, undefined, globex)).status).toBe(404);
    const list = await call<Envelope<{ data: NotificationChannel[] }>>('GET', API, undefined, globex);
    expect(list.body.data.data).toEqual([]);

    const tech = (await server.devSignIn('tech@acme.example')).token;
    expect((await call('GET', API, undefined, tech)).status).toBe(403);
    const sites = await call<Envelope<{ data: Site[] }>>('GET', '/api/customer/sites');
    const siteId = sites.body.data.data[0]!.id;
    const limited = await call('POST', '/api/customer/users', {
      email: 'limited-admin@acme.example',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [siteId],
    });
    expect(limited.status).toBe(200);
    const limitedToken = (await server.devSignIn('limited-admin@acme.example')).token;
    const refused = await call<ApiErrorBody>('GET', API, undefined, limitedToken);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(channelMessages.allSitesOnly);

    expect((await call('DELETE', `${API}/${teams.id}`)).status).toBe(200);
    expect((await call('GET', `${API}/${teams.id}`)).status).toBe(404);
  });
});
