import WebSocket from 'ws';
import { AGENT_DEVICE_HEADER, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type { EnrollFacts, EnrollResult, HelloMessage } from '@outpost/contract/agent-protocol';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import type { SignInResult } from '@outpost/contract/auth';

// Helpers for the live integration tests: a bare protocol client for agents and portal sockets,
// so tests speak the wire format directly (the real agent has its own tests).

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
type Requester = <T>(
  method: string,
  path: string,
  opts?: { token?: string; body?: unknown },
) => Promise<{ status: number; body: T }>;

export type Received = { type: string; [k: string]: unknown };

export class TestSocket {
  readonly received: Received[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private listeners = new Set<() => void>();
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;

  constructor(readonly ws: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as Received);
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

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first received message (from `from` on) matching the predicate. */
  waitFor<T extends Received = Received>(
    predicate: (m: Received) => boolean,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.slice(from).find(predicate);
        if (found) {
          cleanup();
          resolve(found as T);
        } else if (this.closeCode !== null) {
          cleanup();
          reject(new Error(`socket closed (${this.closeCode} ${this.closeReason}) before the message`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out; received: ${JSON.stringify(this.received).slice(0, 2000)}`));
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

const wsUrl = (httpUrl: string, path: string) => httpUrl.replace(/^http/, 'ws') + path;

export function connectAgentSocket(url: string, deviceGuid: string, secret: string): TestSocket {
  return new TestSocket(
    new WebSocket(wsUrl(url, '/api/agent/ws'), {
      headers: { [AGENT_DEVICE_HEADER]: deviceGuid, authorization: `Bearer ${secret}` },
    }),
  );
}

export function connectPortalSocket(url: string, auth: { tenantId: number; userId: number; token: string }) {
  const q = new URLSearchParams({
    tenantId: String(auth.tenantId),
    userId: String(auth.userId),
    token: auth.token,
  });
  return new TestSocket(new WebSocket(wsUrl(url, `/api/ws?${q}`)));
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
  request: Requester,
  adminToken: string,
  body: Record<string, unknown> = {},
): Promise<CreatedEnrollmentToken> {
  const res = await request<Envelope<CreatedEnrollmentToken>>(
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

export async function enroll(request: Requester, token: string, f: EnrollFacts = facts()) {
  return request<Envelope<EnrollResult>>('POST', '/api/agent/enroll', { body: { token, facts: f } });
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
  await agent.waitFor((m) => m.type === 'welcome');
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
