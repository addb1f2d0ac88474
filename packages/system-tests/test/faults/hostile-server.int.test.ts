import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { WebSocketServer } from 'ws';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import type { Agent } from '@outpost/agent/agent';
import type { Logger } from '@outpost/agent/connection';
import { realAgent } from '../support/agent-faults';

// Faults: the agent against a server that answers garbage. At the agent's server address
// there is first a hostile server (an HTTP 500 with a broken body, bytes that are not HTTP, a
// socket sending invalid JSON and wrong frames then cut, a socket that never welcomes, one that
// welcomes and then stops answering, an upgrade answered too slowly), then nothing at all for a
// long series of attempts (the backoff cap is shortened so "hours" take a second), then the real
// server. The agent must not crash or give up, and must end up connected and answering commands.

const HOSTILE_BEHAVIOURS = [
  '500 with a body that is not JSON',
  'bytes that are not HTTP, then a cut',
  'invalid JSON, wrong frames, binary garbage, then a cut',
  'a socket that never welcomes',
  'a welcome, then silence (no pong)',
  'an upgrade answered too slowly',
] as const;

/** One address the agent dials; what answers there is switched by the test. */
class Front {
  mode: 'hostile' | 'absent' | 'real' = 'hostile';
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly targets: { hostile: number; real: number },
  ) {}
  async listen() {
    this.server = net.createServer((sock) => {
      this.sockets.add(sock);
      sock.on('close', () => this.sockets.delete(sock));
      const upstream = net.connect(
        this.mode === 'real' ? this.targets.real : this.targets.hostile,
        '127.0.0.1',
      );
      sock.pipe(upstream).pipe(sock);
      const end = () => {
        sock.destroy();
        upstream.destroy();
      };
      sock.on('error', end);
      upstream.on('error', end);
      sock.on('close', end);
      upstream.on('close', end);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }
  /** Nobody listens at the address any more (connection refused). */
  async absent() {
    this.mode = 'absent';
    const srv = this.server;
    this.server = null;
    for (const s of this.sockets) {
      s.destroy();
    }
    await new Promise<void>((resolve) => (srv ? srv.close(() => resolve()) : resolve()));
  }
  async close() {
    await this.absent();
  }
}

describe('the agent against a hostile or absent server', () => {
  let server: TestServer;
  let hostile: http.Server;
  let front: Front;
  let agent: Agent | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-hostile-'));
  const seen: string[] = [];
  let upgrades = 0;
  const upgraded = new Set<{ destroy(): void }>();

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    const wss = new WebSocketServer({ noServer: true, autoPong: false });
    hostile = http.createServer((_req, res) => {
      res.writeHead(500).end('<html>oops');
    });
    hostile.on('upgrade', (req, socket, head) => {
      const behaviour = HOSTILE_BEHAVIOURS[upgrades++ % HOSTILE_BEHAVIOURS.length]!;
      seen.push(behaviour);
      upgraded.add(socket);
      socket.on('error', () => undefined);
      switch (behaviour) {
        case '500 with a body that is not JSON':
          socket.end('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 9\r\n\r\n{"broken');
          return;
        case 'bytes that are not HTTP, then a cut':
          socket.write('\u0000\u00ffgarbage\r\n\r\n');
          socket.destroy();
          return;
        case 'an upgrade answered too slowly':
          return; // never answered; the agent gives up on its own
        case 'invalid JSON, wrong frames, binary garbage, then a cut':
        case 'a socket that never welcomes':
        case 'a welcome, then silence (no pong)':
          wss.handleUpgrade(req, socket, head, (ws) => {
            ws.on('error', () => undefined);
            if (behaviour === 'invalid JSON, wrong frames, binary garbage, then a cut') {
              ws.send('not json{');
              ws.send(JSON.stringify({ type: 'welcome' }));
              ws.send(JSON.stringify({ type: 'command', commandId: 42, command: { kind: 'format_disk' } }));
              ws.send(JSON.stringify({ type: 'ack' }));
              ws.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
              ws.send('[]');
              ws.send('null');
              setTimeout(() => ws.terminate(), 50);
            } else if (behaviour === 'a welcome, then silence (no pong)') {
              ws.send(
                JSON.stringify({
                  type: 'welcome',
                  protocolVersion: 1,
                  deviceGuid: 'not-this-one',
                  heartbeatIntervalMs: 100,
                  serverTime: new Date().toISOString(),
                }),
              );
            }
            // 'a socket that never welcomes': nothing at all
          });
      }
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    const hostilePort = (hostile.address() as net.AddressInfo).port;
    const realPort = Number(new URL(server.url).port);
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const frontPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    front = new Front(frontPort, { hostile: hostilePort, real: realPort });
    await front.listen();
  });
  afterAll(async () => {
    await agent?.stop();
    await front?.close();
    hostile?.closeAllConnections();
    for (const socket of upgraded) {
      socket.destroy();
    }
    await new Promise((resolve) => hostile?.close(resolve));
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('survives garbage, abrupt closes, silence and a long absence, then resumes on its own', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    const token = (await createEnrollmentToken(server, admin.token)).token;
    const creds = (await enroll(server, token, facts({ hostname: 'stubborn' }))).body.data;
    let reconnects = 0;
    const lines: string[] = [];
    const log: Logger = {
      info: (msg) => {
        lines.push(msg);
        if (msg.startsWith('disconnected')) {
          reconnects++;
        }
      },
      warn: (msg) => void lines.push(msg),
      error: (msg) => void lines.push(msg),
    };
    agent = realAgent(
      `http://127.0.0.1:${front.port}`,
      creds,
      { outbox: path.join(dir, 'outbox'), work: path.join(dir, 'work') },
      { baseMs: 20, capMs: 100 },
      { log, welcomeTimeoutMs: 3000 },
    );
    agent.start();

    // Every hostile behaviour twice over (two rounds of welcome and upgrade timeouts: a bound that a
    // loaded machine also meets, never a measured time).
    await eventually(() => Promise.resolve(upgrades >= HOSTILE_BEHAVIOURS.length * 2), 60_000).catch(
      (err: unknown) => {
        throw new Error(
          `${String(err)}: saw ${JSON.stringify(seen)}, state ${agent!.connection.state}, log ${JSON.stringify(lines.slice(-10))}`,
        );
      },
    );
    expect(new Set(seen)).toEqual(new Set(HOSTILE_BEHAVIOURS));
    expect(agent.connection.state).not.toBe('stopped');

    // Then nobody at all for a long series of attempts (at the shortened backoff cap).
    await front.absent();
    const before = reconnects;
    await eventually(() => Promise.resolve(reconnects - before >= 50), 30_000).catch((err: unknown) => {
      throw new Error(
        `${String(err)}: ${reconnects - before} reconnects, state ${agent!.connection.state}, log ${JSON.stringify(lines.slice(-10))}`,
      );
    });
    expect(agent.connection.state).toBe('connecting');

    // The real server comes back at the address: the agent connects on its own and works.
    front.mode = 'real';
    await front.listen();
    await eventually(() => Promise.resolve(agent!.connection.state === 'connected'), 20_000).catch(
      (err: unknown) => {
        throw new Error(
          `${String(err)}: state ${agent!.connection.state}, log ${JSON.stringify(lines.slice(-10))}`,
        );
      },
    );
    const [row] = await eventually(async () => {
      const rows = await server.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      return rows[0]?.status === 'online' ? rows : null;
    });
    const refresh = await server.request<{ success: boolean }>(
      'POST',
      `/api/customer/devices/${row!.id}/refresh/services`,
      { token: admin.token },
    );
    expect(refresh.status).toBe(200);
    console.log(
      `[faults] hostile server: ${upgrades} hostile upgrades, ${reconnects} reconnects in all, then connected to the real server`,
    );
  }, 120_000);
});
