import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListData } from '@outpost/contract/envelope';
import type { WebhookCreated, WebhookDelivery } from '@outpost/contract/webhooks';
import { createThrowawayDatabase } from '../../../test/harness';
import { eventually } from '../../../test/support/live';
import { verifyWebhookSignature } from '../../lib/webhook-signature';

// docs/product/webhooks.md#deliveries: an event is queued in the transaction of what it tells, so a
// server killed (SIGKILL) after the commit and before the delivery delivers it once it is started
// again, exactly once. The real entry point runs as a child process; its outbox is held (an
// interval of 5 minutes, and events do not wake it) until it is killed, and runs every 100 ms
// after the restart.

const main = path.resolve(import.meta.dirname, '..', '..', 'main.ts');
const SECRET = 'crash-test-signing-secret-0123';
type Envelope<T> = { success: true; data: T };

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('an event webhook across a SIGKILL', { timeout: 120_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-webhook-crash-'));
  const children: ChildProcess[] = [];
  let dropDatabase: (() => Promise<void>) | null = null;
  afterAll(async () => {
    for (const c of children) {
      c.kill('SIGKILL');
    }
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts the server on `port` and resolves once it says it is ready. */
  function start(port: number, env: Record<string, string>): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        INIT_CWD: '',
        OUTPOST_DEMO: '1',
        OUTPOST_DEMO_DEVICES: '0',
        OUTPOST_ALLOW_DEV_LOGIN: '1',
        SESSION_SECRET: 'crash-test-session-secret-0123456789abcdef',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (d: string) => {
        out += d;
        if (out.includes('Outpost is ready')) {
          resolve(child);
        }
      });
      child.stderr.resume();
      child.on('exit', (code) =>
        reject(new Error(`the server exited with ${code} before it was ready: ${out}`)),
      );
    });
  }

  it('delivers an event committed before the kill exactly once after the restart', async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL
      ? await createThrowawayDatabase(process.env.TEST_DATABASE_URL).then((d) => {
          dropDatabase = () => d.drop();
          return d.url;
        })
      : '';
    const received: { id: string; verified: boolean }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const check = verifyWebhookSignature({
          secret: SECRET,
          timestamp: req.headers['x-outpost-timestamp'] as string | undefined,
          signature: req.headers['x-outpost-signature'] as string | undefined,
          body,
        });
        received.push({ id: String(req.headers['x-outpost-delivery']), verified: check.ok });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const call = async <T>(method: string, url: string, token?: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Envelope<T> };
    };
    const signIn = async () =>
      (
        await call<{ token: string }>('POST', '/api/customer/auth/dev', undefined, {
          email: 'admin@acme.example',
        })
      ).body.data.token;

    // 1. the outbox held: the event is committed and not sent
    let server = await start(port, { DATABASE_URL: databaseUrl, NOTIFY_OUTBOX_INTERVAL_MS: '300000' });
    let token = await signIn();
    const created = await call<WebhookCreated>('POST', '/api/customer/webhooks', token, {
      name: 'Crash test',
      url: hookUrl,
      events: ['user.added'],
      secret: SECRET,
    });
    expect(created.status).toBe(200);
    const hookId = created.body.data.id;
    const added = await call('POST', '/api/customer/users', token, { email: 'crash-hire@acme.example' });
    expect(added.status).toBe(200);
    const log = async () =>
      (await call<ListData<WebhookDelivery>>('GET', `/api/customer/webhooks/${hookId}/deliveries`, token))
        .body.data.data;
    const [queued] = await log();
    expect(queued).toMatchObject({ event: 'user.added', status: 'pending', attempts: 0 });

    // 2. killed between the commit and the delivery
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await exited;
    expect(received).toEqual([]);

    // 3. started again: the outbox finds the row and delivers it, once
    server = await start(port, { DATABASE_URL: databaseUrl, NOTIFY_OUTBOX_INTERVAL_MS: '100' });
    token = await signIn();
    await eventually(async () => (await log())[0]?.status === 'delivered', 30_000);
    const [delivered] = await log();
    expect(delivered).toMatchObject({ id: queued!.id, status: 'delivered', attempts: 1, last_code: 200 });
    expect(received).toEqual([{ id: String(queued!.id), verified: true }]);
    server.kill('SIGTERM');
    await new Promise((r) => receiver.close(r));
  });
});
