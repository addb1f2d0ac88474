import http from 'node:http';
import WebSocket from 'ws';
import {
  AGENT_DEVICE_HEADER,
  AGENT_PROTOCOL_VERSION,
  ServerToAgentMessage,
} from '@outpost/contract/agent-protocol';
import type { AgentMessage, EnrollFacts, EnrollResult, HelloMessage } from '@outpost/contract/agent-protocol';
import { deviceKey } from '@outpost/contract/live';
import type { PortalClientMessage, PortalServerMessage } from '@outpost/contract/live';
import { createThrowawayDatabase } from '../harness';
import type { PortalHub } from '../../src/live/portal-socket';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import type { SignInResult } from '@outpost/contract/auth';

// Helpers for the live integration tests: a bare protocol client for agents and portal sockets,
// so tests speak the wire format directly (the real agent has its own tests).

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
type Requester = <T>(
  method: string,
  path: string,
  opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<{ status: number; body: T }>;
/** a test server (or its request function) */
type Requesting = Requester | { request: Requester };
const requester = (r: Requesting): Requester => (typeof r === 'function' ? r : (...a) => r.request(...a));

type Message = { type: string };
type OfType<M extends Message, K extends M['type']> = Extract<M, { type: K }>;

/**
 * A bare socket speaking the contract's messages: `In` what the server sends, `Out` what the test
 * may send (a string sends raw text, for malformed input).
 */
export class TestSocket<In extends Message, Out> {
  readonly received: In[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private listeners = new Set<() => void>();
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;

  constructor(
    readonly ws: WebSocket,
    parse: (json: unknown) => In = (json) => json as In,
  ) {
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => {
        const retryAfter = res.headers['retry-after'];
        reject(new UpgradeRefused(res.statusCode ?? 0, typeof retryAfter === 'string' ? retryAfter : null));
      });
      ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data: Buffer) => {
      this.received.push(parse(JSON.parse(data.toString('utf8'))));
      this.notify();
    });
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      this.notify();
    });
    ws.on('error', () => undefined);
  }

  private notify() {
    for (const l of this.listeners) {
      l();
    }
  }

  send(message: Out | string) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Received messages of one type (from index `from` on). */
  ofType<K extends In['type']>(type: K, from = 0): OfType<In, K>[] {
    return this.received.slice(from).filter((m): m is OfType<In, K> => m.type === type);
  }

  /** The first received message of `type` (from index `from` on) matching the predicate. */
  waitFor<K extends In['type']>(
    type: K,
    predicate: (m: OfType<In, K>) => boolean = () => true,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<OfType<In, K>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.ofType(type, from).find(predicate);
        if (found) {
          cleanup();
          resolve(found);
        } else if (this.closeCode !== null) {
          cleanup();
          reject(new Error(`socket closed (${this.closeCode} ${this.closeReason}) before ${type}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `timed out waiting for ${type}; received: ${JSON.stringify(this.received).slice(0, 2000)}`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  waitForClose(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    return Promise.race([
      this.closed.then(() => ({ code: this.closeCode ?? 0, reason: this.closeReason })),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('socket did not close')), timeoutMs),
      ),
    ]);
  }

  /** Without a code the server sees 1005 (a dropped agent); 1000 is an agent saying goodbye. */
  close(code?: number) {
    this.ws.close(code);
    return this.closed;
  }
}

/** The server answered the upgrade with an HTTP status instead of a socket. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    /** the Retry-After header, when there was one */
    readonly retryAfter: string | null = null,
  ) {
    super(`upgrade refused: ${status}`);
  }
}

/** The HTTP status an agent socket's upgrade got: 101 when it opened (it is closed again). */
export async function upgradeStatus(socket: AgentSocket): Promise<number> {
  try {
    await socket.opened;
    await socket.close();
    return 101;
  } catch (err) {
    if (err instanceof UpgradeRefused) {
      return err.status;
    }
    throw err;
  }
}

export type AgentSocket = TestSocket<ServerToAgentMessage, AgentMessage>;
export type PortalSocket = TestSocket<PortalServerMessage, PortalClientMessage>;

const wsUrl = (httpUrl: string, path: string) => httpUrl.replace(/^http/, 'ws') + path;

/** What the server sends an agent is parsed with the contract's schema, so drift fails a test. */
export function connectAgentSocket(
  url: string,
  deviceGuid: string,
  secret: string,
  options: { localAddress?: string } = {},
): AgentSocket {
  return new TestSocket(
    new WebSocket(wsUrl(url, '/api/agent/ws'), {
      headers: { [AGENT_DEVICE_HEADER]: deviceGuid, authorization: `Bearer ${secret}` },
      ...options,
    }),
    (json) => ServerToAgentMessage.parse(json),
  );
}

export function connectPortalSocket(
  url: string,
  auth: { tenantId: number; userId: number; token: string },
): PortalSocket {
  const q = new URLSearchParams({
    tenantId: String(auth.tenantId),
    userId: String(auth.userId),
    token: auth.token,
  });
  return new TestSocket(new WebSocket(wsUrl(url, `/api/ws?${q.toString()}`)));
}

export const portalAuth = (s: SignInResult) => ({
  tenantId: s.user.tenant_id,
  userId: s.user.id,
  token: s.token,
});

export function hello(overrides: Partial<HelloMessage> = {}): HelloMessage {
  return {
    type: 'hello',
    protocolVersion: AGENT_PROTOCOL_VERSION,
    agentVersion: '1.0.0-test',
    hostname: 'test-host',
    osType: 'windows',
    osVersion: 'Windows 11 Pro 23H2',
    sessions: [],
    ...overrides,
  };
}

export function facts(overrides: Partial<EnrollFacts> = {}): EnrollFacts {
  return {
    hostname: 'test-host',
    osType: 'windows',
    osVersion: 'Windows 11 Pro 23H2',
    agentVersion: '1.0.0-test',
    ...overrides,
  };
}

export async function createEnrollmentToken(
  server: Requesting,
  adminToken: string,
  body: Record<string, unknown> = {},
): Promise<CreatedEnrollmentToken> {
  const res = await requester(server)<Envelope<CreatedEnrollmentToken>>(
    'POST',
    '/api/customer/agents/enrollment-tokens',
    {
      token: adminToken,
      body,
    },
  );
  if (res.status !== 200) {
    throw new Error(`token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.data;
}

export async function enroll(server: Requesting, token: string, f: EnrollFacts = facts()) {
  return requester(server)<Envelope<EnrollResult>>('POST', '/api/agent/enroll', {
    body: { token, facts: f },
  });
}

/** Enrol, connect and say hello; resolves once the server has welcomed the agent. */
export async function onlineAgent(
  url: string,
  creds: Pick<EnrollResult, 'device_guid' | 'agent_secret'>,
  h: Partial<HelloMessage> = {},
) {
  const agent = connectAgentSocket(url, creds.device_guid, creds.agent_secret);
  await agent.opened;
  agent.send(hello(h));
  await agent.waitFor('welcome');
  return agent;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until check() returns a truthy value. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await sleep(50);
  }
}

let markers = 0;

/**
 * Waits until everything published before this call has reached `socket`, instead of sleeping:
 * a marker device_update for `markerGuid` (a device the socket follows) goes through the same bus
 * and hub, which deliver in order, so whatever was not received before the marker never comes.
 * Returns the marker's index in `socket.received`.
 */
export async function flushPortal(
  hub: PortalHub,
  socket: PortalSocket,
  tenantId: number,
  markerGuid: string,
): Promise<number> {
  const hostname = `marker-${++markers}`;
  await hub.send(tenantId, deviceKey(markerGuid), 'device_update', {
    deviceId: markerGuid,
    id: 0,
    status: 'offline',
    lastSeen: null,
    hostname,
  });
  const marker = await socket.waitFor('device_update', (m) => m.payload.hostname === hostname);
  return socket.received.indexOf(marker);
}

/** Every answer to what was sent before has arrived once the server answers a ping sent after it. */
export async function flushAnswers(socket: PortalSocket): Promise<number> {
  const from = socket.received.length;
  socket.send({ type: 'ping' });
  const pong = await socket.waitFor('pong', undefined, undefined, from);
  return socket.received.indexOf(pong);
}

// Two instances share one PostgreSQL and one Redis (docs/product/agent-protocol.md#several-instances): always a real PostgreSQL
// (TEST_DATABASE_URL, else the local default) and Redis (TEST_REDIS_URL, else the local default).
export const PG_BASE = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** A fresh PostgreSQL database several test servers can share, dropped by the test. */
/** A fresh PostgreSQL database for tests that start several instances on one database. */
export function throwawayDatabase() {
  return createThrowawayDatabase(PG_BASE);
}

/**
 * POST JSON from a chosen loopback address (127.0.0.x), so a test can be several clients.
 * Resolves with the status and the parsed body.
 */
export function postFrom<T = unknown>(
  url: string,
  path: string,
  body: unknown,
  localAddress: string,
): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      url + path,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
