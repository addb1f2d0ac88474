import net from 'node:net';
import pg from 'pg';
import type { SignInResult } from '@outpost/contract/auth';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent, AgentOptions } from '@outpost/agent/agent';
import { createStepsRunner } from '@outpost/agent/deployment/steps-runner';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend } from '@outpost/agent/system-backend';

// Helpers for the agent-side fault tests: plain HTTP against a server the test may kill
// and restart (a child process), and the real agent wired as on a device, in dry run.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

export async function call<T>(
  url: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = {};
  if (opts.token) {
    headers.authorization = `Bearer ${opts.token}`;
  }
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(url + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

export async function signIn(url: string, email: string): Promise<SignInResult> {
  const res = await call<SignInResult>(url, 'POST', '/api/customer/auth/dev', { body: { email } });
  if (res.status !== 200) {
    throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.data;
}

export async function enrolmentToken(url: string, adminToken: string): Promise<string> {
  const res = await call<CreatedEnrollmentToken>(url, 'POST', '/api/customer/agents/enrollment-tokens', {
    token: adminToken,
    body: {},
  });
  return res.body.data.token;
}

export async function enrolDevice(url: string, token: string, hostname: string): Promise<EnrollResult> {
  const res = await call<EnrollResult>(url, 'POST', '/api/agent/enroll', {
    body: {
      token,
      facts: { hostname, osType: 'linux', osVersion: 'Debian 12', agentVersion: '1.0.0-faults' },
    },
  });
  if (res.status !== 200) {
    throw new Error(`enrolment failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.data;
}

/** The real agent: step library with real (harmless) processes, on-disk outbox, recording executor. */
export function realAgent(
  url: string,
  creds: Pick<EnrollResult, 'device_guid' | 'agent_secret'>,
  dirs: { outbox: string; work: string },
  backoff = { baseMs: 200, capMs: 2000 },
  extra: Pick<AgentOptions, 'log' | 'welcomeTimeoutMs'> = {},
): Agent {
  return createAgent({
    ...extra,
    server: url,
    deviceGuid: creds.device_guid,
    agentSecret: creds.agent_secret,
    outbox: createFileOutbox(dirs.outbox),
    backend: createSystemBackend({ externalIpUrl: null }),
    executor: new RecordingExecutor(),
    deployments: createStepsRunner({
      server: url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      workDir: dirs.work,
    }),
    progress: { intervalMs: 100 },
    backoff,
  });
}

/** One query on a fresh connection (the server under test may be dead meanwhile). */
export async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await sleep(100);
  }
}

export type Proxy = {
  url: string;
  /** every open connection cut and new ones refused, as a network outage */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

/** A TCP proxy in front of `targetPort` on a port of its own, which the test can cut. */
export async function startProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = async () => {
    const srv = net.createServer((sock) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      sockets.add(sock);
      sockets.add(upstream);
      const end = () => {
        sock.destroy();
        upstream.destroy();
        sockets.delete(sock);
        sockets.delete(upstream);
      };
      for (const s of [sock, upstream]) {
        s.on('error', end);
        s.on('close', end);
      }
      sock.pipe(upstream).pipe(sock);
    });
    server = srv;
    await new Promise<void>((resolve) => srv.listen(port, '127.0.0.1', resolve));
    port = (srv.address() as net.AddressInfo).port;
  };
  const cut = async () => {
    const srv = server;
    server = null;
    for (const s of sockets) {
      s.destroy();
    }
    sockets.clear();
    await new Promise<void>((resolve) => (srv ? srv.close(() => resolve()) : resolve()));
  };
  await listen();
  return { url: `http://127.0.0.1:${port}`, cut, restore: listen, close: cut };
}
