// Benchmark: the remote terminal (docs/product/remote-access.md#terminal), loopback only.
//
//   npm run bench -- terminal [--quick] [--keys 300] [--sessions 50] [--seconds 20]
//
// The servers run in their own processes on a throwaway PostgreSQL database (as in production;
// the browser's and the agent's ends run here, so their work never delays the server's loop),
// from TEST_DATABASE_URL (or the local default); Redis from TEST_REDIS_URL (or the local default).
//
// 1. Keystroke-to-echo round trip through one instance: the browser socket sends one key, an
//    agent (protocol-level, echoing every input frame at once) answers, the browser receives the
//    echo. After WARM_KEYS unmeasured keys (the first frames compile the relay's paths).
//    Target p99 ≤ 50 ms.
// 2. The same with two instances sharing the database and Redis (browser on one, agent on the
//    other). Target p99 ≤ 80 ms.
// 3. N sessions (default 50) each streaming 100 KB/s of output (text: a colour listing) to its
//    browser socket for the duration, while GET /api/customer/devices is measured; compared with
//    the same list unloaded. The browsers' ends only count the output (terminal.ts keepOutput).
//    Target: the loaded p99 within the device list's own target, 25 ms (the api benchmark's).
// Writes bench/results/terminal.json.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_CAPABILITIES } from '../packages/contract/src/agent-protocol';
import type { TerminalOpenMessage } from '../packages/contract/src/agent-protocol';
import {
  PG_BASE,
  REDIS_URL,
  createEnrollmentToken,
  enroll,
  facts,
  onlineAgent,
} from '../packages/server/test/support/live';
import type { AgentSocket } from '../packages/server/test/support/live';
import { TerminalClient } from '../packages/server/test/support/terminal';
import { fleetServerEnv, prepareDatabase, signIn, startServer } from './fleet-setup';
import { freePort, machine, percentile, writeResult } from './lib';
import type { Child } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    keys: { type: 'string' },
    sessions: { type: 'string' },
    seconds: { type: 'string' },
  },
});
const quick = values.quick;
const KEYS = Number(values.keys ?? (quick ? 60 : 300));
const SESSIONS = Number(values.sessions ?? (quick ? 10 : 50));
const SECONDS = Number(values.seconds ?? (quick ? 4 : 20));
const RATE = 100 * 1024;
const WARM_KEYS = 50;
/** the device list's p99 target (bench/api.ts), which 50 streaming sessions must not push it over */
const DEVICE_LIST_TARGET_MS = 25;
const log = (s: string) => console.error(s);
const round = (x: number) => Math.round(x * 100) / 100;

type Rig = { deviceId: number; agent: AgentSocket };

/** A server process: its address and a request function for the test helpers. */
type Instance = {
  url: string;
  child: Child;
  request: <T>(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ) => Promise<{ status: number; body: T }>;
};

async function startInstance(databaseUrl: string, extra: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-terminal-'));
  const child = await startServer('tsx', fleetServerEnv(databaseUrl, dataDir, port, extra));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    async request(method, route, opts = {}) {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: {
          ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      return { status: res.status, body: (await res.json()) as never };
    },
  };
}

/** A protocol-level agent that echoes input and can stream output, with remote access. */
async function echoAgent(server: Instance, browserSide: Instance, admin: string, name: string): Promise<Rig> {
  const token = (await createEnrollmentToken(browserSide, admin)).token;
  const creds = (
    await enroll(browserSide, token, facts({ hostname: name, osType: 'linux', machineId: name }))
  ).body.data;
  const agent = await onlineAgent(server.url, creds, {
    hostname: name,
    osType: 'linux',
    capabilities: [AGENT_CAPABILITIES.remote],
  });
  await agent.waitFor('remote_policy');
  const outSeq = new Map<string, number>();
  agent.ws.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString('utf8')) as { type: string; sessionId?: string; data?: string };
    if (m.type === 'terminal_open') {
      outSeq.set(m.sessionId!, 0);
      agent.send({ type: 'terminal_started', sessionId: m.sessionId!, shell: 'bench' });
    } else if (m.type === 'terminal_input') {
      const seq = (outSeq.get(m.sessionId!) ?? 0) + 1;
      outSeq.set(m.sessionId!, seq);
      agent.send({ type: 'terminal_output', sessionId: m.sessionId!, seq, data: m.data! });
    }
  });
  const list = await browserSide.request<{ data: { data: Array<{ id: number; hostname: string }> } }>(
    'GET',
    `/api/customer/devices?search=${name}`,
    { token: admin },
  );
  const deviceId = list.body.data.data.find((d) => d.hostname === name)!.id;
  return { deviceId, agent };
}

async function roundTrips(browserSide: Instance, admin: string, rig: Rig): Promise<number[]> {
  const term = await TerminalClient.open(browserSide.url, rig.deviceId, admin);
  await term.until(() => term.frames.find((f) => f.type === 'started'), 15_000, 'started');
  const times: number[] = [];
  let slowKeys = 0;
  for (let i = 0; i < WARM_KEYS + KEYS; i += 1) {
    const before = term.bytes.length;
    const t0 = performance.now();
    term.type('k');
    await term.until(() => term.bytes.length > before, 5_000, 'echo');
    const ms = performance.now() - t0;
    if (ms > 10 && (slowKeys += 1) <= 20) {
      log(`key ${i}: ${ms.toFixed(1)} ms`); // the slow ones, for the record (the first 20)
    }
    if (i >= WARM_KEYS) {
      times.push(ms);
    }
  }
  term.close();
  await term.waitForEnd();
  return times;
}

async function deviceListP99(
  server: Instance,
  admin: string,
  seconds: number,
): Promise<{ p50: number; p99: number; n: number }> {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/customer/devices?limit=50`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), n: times.length };
}

/**
 * What a terminal streams: text, here lines of a long listing with colour codes (`ls -l --color`).
 * Random bytes (the runs before 2026-11-27 18:30) are not terminal output: every invalid byte
 * becomes U+FFFD in the recording, three bytes each.
 */
function terminalText(size: number): Buffer {
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; total < size; i += 1) {
    const name = crypto.randomBytes(6).toString('hex');
    const bytes = String(crypto.randomInt(100, 9_999_999)).padStart(8);
    const line = `-rw-r--r--  1 outpost staff ${bytes} Nov 27 18:${String(i % 60).padStart(2, '0')} \x1b[01;34m${name}\x1b[0m.log\r\n`;
    lines.push(line);
    total += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}

async function streaming(server: Instance, admin: string) {
  await deviceListP99(server, admin, 1); // warm-up
  const unloaded = await deviceListP99(server, admin, Math.max(2, SECONDS / 2));
  const rigs: Rig[] = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    rigs.push(await echoAgent(server, server, admin, `bench-stream-${i}`));
  }
  const terms: TerminalClient[] = [];
  const streams: Array<() => void> = [];
  for (const rig of rigs) {
    const term = await TerminalClient.open(server.url, rig.deviceId, admin, { keepOutput: false });
    const open: TerminalOpenMessage = await rig.agent.waitFor('terminal_open', () => true, 30_000);
    await term.until(() => term.frames.find((f) => f.type === 'started'), 15_000, 'started');
    terms.push(term);
    // 100 KB/s: 5 KiB of a listing every 50 ms
    const chunk = terminalText(5 * 1024).toString('base64');
    let seq = 1_000;
    const timer = setInterval(() => {
      seq += 1;
      rig.agent.send({ type: 'terminal_output', sessionId: open.sessionId, seq, data: chunk });
    }, 50);
    streams.push(() => clearInterval(timer));
  }
  const started = Date.now();
  const before = terms.reduce((s, t) => s + t.outputBytes, 0);
  const loaded = await deviceListP99(server, admin, SECONDS);
  const received = terms.reduce((s, t) => s + t.outputBytes, 0) - before;
  const seconds = (Date.now() - started) / 1000;
  for (const stop of streams) {
    stop();
  }
  for (const t of terms) {
    t.close();
  }
  await Promise.all(terms.map((t) => t.waitForEnd().catch(() => undefined)));
  for (const r of rigs) {
    r.agent.ws.close();
  }
  return {
    sessions: SESSIONS,
    bytes_per_second_each: RATE,
    received_kib_per_second_each: round(received / seconds / SESSIONS / 1024),
    device_list_unloaded: unloaded,
    device_list_loaded: loaded,
    target_p99_ms: DEVICE_LIST_TARGET_MS,
  };
}

const results: Record<string, unknown> = { machine: machine(), quick, keys: KEYS };

// 1 and 3: one instance
{
  const db = await prepareDatabase(PG_BASE);
  const server = await startInstance(db.url);
  try {
    const admin = (await signIn(server.url)).token;
    const rig = await echoAgent(server, server, admin, 'bench-echo-1');
    const rtt = await roundTrips(server, admin, rig);
    results.one_instance = {
      p50_ms: round(percentile(rtt, 50)),
      p99_ms: round(percentile(rtt, 99)),
      max_ms: round(Math.max(...rtt)),
      target_p99_ms: 50,
    };
    log(`one instance: keystroke echo ${JSON.stringify(results.one_instance)}`);
    rig.agent.ws.close();
    results.streaming = await streaming(server, admin);
    log(`streaming: ${JSON.stringify(results.streaming)}`);
  } finally {
    await server.child.stop();
    await db.drop();
  }
}

// 2: two instances, one database and Redis
{
  const db = await prepareDatabase(PG_BASE);
  const env = { REDIS_URL, REDIS_CHANNEL_PREFIX: `outpost-bench-${crypto.randomBytes(4).toString('hex')}:` };
  const one = await startInstance(db.url, env);
  const two = await startInstance(db.url, env);
  try {
    const admin = (await signIn(two.url)).token;
    const rig = await echoAgent(one, two, admin, 'bench-echo-2');
    const rtt = await roundTrips(two, admin, rig);
    results.two_instances = {
      p50_ms: round(percentile(rtt, 50)),
      p99_ms: round(percentile(rtt, 99)),
      max_ms: round(Math.max(...rtt)),
      target_p99_ms: 80,
    };
    log(`two instances: keystroke echo ${JSON.stringify(results.two_instances)}`);
    rig.agent.ws.close();
  } finally {
    await one.child.stop();
    await two.child.stop();
    await db.drop();
  }
}

console.log(JSON.stringify(results, null, 2));
log(`written to ${writeResult(quick ? 'terminal-quick' : 'terminal', results)}`);
process.exit(0);
