// What the fleet and deploy benchmarks share: a throwaway PostgreSQL database with one tenant (no
// agent limit), the Outpost server in its own process, dev sign-in, an enrolment token, and the
// fleet simulator (packages/agent/src/sim/main.ts) in another process, connecting its agents
// through the normal enrolment and socket path.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client';
import { createTenant } from '../packages/server/src/modules/tenants/tenants.service';
import { createThrowawayDatabase } from '../packages/server/test/harness';
import { freePort, repoRoot, startChild, type Child } from './lib';

export const SESSION_SECRET = 'bench-session-secret-0123456789-abcdef';
export const ADMIN_EMAIL = 'bench-admin@bench.example';

export const defaultPostgres = () =>
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** wall-clock ms with sub-ms precision, comparable between processes on this machine */
export const wallMs = () => performance.timeOrigin + performance.now();

/** The server's env for a fleet: the enrolment limits raised (every agent comes from 127.0.0.1). */
export function fleetServerEnv(
  databaseUrl: string,
  dataDir: string,
  port: number,
  extra: Record<string, string> = {},
) {
  return {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    OUTPOST_DEMO: '0',
    // the benchmark signs in with dev sign-in from loopback (SECURITY.md R2-7)
    OUTPOST_ALLOW_DEV_LOGIN: '1',
    // ten thousand machines behind one address with one token: the defaults (600 a minute) are
    // for the internet, not for a benchmark (docs/operations.md#several-instances-and-the-limits-agents-meet)
    ENROLL_PER_ADDRESS_PER_MINUTE: '1000000',
    ENROLL_PER_TOKEN_PER_MINUTE: '1000000',
    ...extra,
  };
}

export function serverArgs(runtime: string) {
  // BENCH_SERVER_NODE_ARGS: extra node options for the server only (e.g. "--cpu-prof
  // --cpu-prof-dir=/tmp/prof"; NODE_OPTIONS refuses --cpu-prof, and would profile every process)
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return [...extra, ...mainArgs(runtime)];
}

function mainArgs(runtime: string) {
  if (runtime === 'compiled') {
    const main = path.join(repoRoot, 'packages/server/dist/main.js');
    if (!fs.existsSync(main)) {
      throw new Error(`${main} is missing: npm run build first, or --runtime tsx`);
    }
    return [main];
  }
  return ['--import', 'tsx', path.join(repoRoot, 'packages/server/src/main.ts')];
}

export function startServer(runtime: string, env: Record<string, string>) {
  return startChild(serverArgs(runtime), env, /Outpost is ready at/, 180_000);
}

export type Session = { token: string; userId: number; tenantId: number };

export async function api<T>(
  base: string,
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  }
  return (JSON.parse(text) as { data: T }).data;
}

export async function signIn(base: string, email = ADMIN_EMAIL): Promise<Session> {
  const data = await api<{ token: string; user: { id: number; tenant_id: number } }>(
    base,
    'POST',
    '/api/customer/auth/dev',
    null,
    { email },
  );
  return { token: data.token, userId: data.user.id, tenantId: data.user.tenant_id };
}

/** A throwaway database, migrated, with one tenant whose agents are not limited. */
export async function prepareDatabase(baseUrl: string) {
  const throwaway = await createThrowawayDatabase(baseUrl);
  const database = await openDatabase({ databaseUrl: throwaway.url });
  try {
    await createTenant(database.db, {
      name: 'Bench fleet',
      plan: 'Enterprise',
      maxAgents: null,
      licenseExpiry: null,
      adminEmail: ADMIN_EMAIL,
      adminName: 'Bench Admin',
    });
  } finally {
    await database.close();
  }
  return throwaway;
}

export function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
}

/** user + system CPU seconds the process has used (/proc/<pid>/stat, in clock ticks of 1/100 s) */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name may hold spaces: fields are counted after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export type Progress = { enrolled: number; connected: number; warnings?: Record<string, number> };

export type Sim = {
  process: ChildProcess;
  latest(): Progress;
  /** epoch ms of every connection the fleet made (its agents' welcomes), read from the events file */
  connections(): number[];
  output(): string;
  stop(): Promise<void>;
};

/** The fleet simulator in its own process. */
export async function startSim(options: {
  server: string;
  /** one enrolment token, or several: device i enrols with tokens[i % n] */
  token: string | string[];
  devices: number;
  failureRate?: number;
  stepMs?: string;
  /** the address its agent sockets bind (bench/fleet-scale.ts runs one simulator per address) */
  localAddress?: string;
  seed?: number;
  /** enrolments in flight (the simulator's default 8) */
  enrollConcurrency?: number;
  /** machines without installed software (the simulator's --no-software) */
  noSoftware?: boolean;
}): Promise<Sim> {
  const events = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-sim-')), 'connections.txt');
  fs.writeFileSync(events, '');
  let latest: Progress = { enrolled: 0, connected: 0 };
  const child: Child = await startChild(
    [
      '--max-old-space-size=8192',
      '--import',
      'tsx',
      path.join(repoRoot, 'packages/agent/src/sim/main.ts'),
      '--server',
      options.server,
      ...[options.token].flat().flatMap((t) => ['--token', t]),
      '--devices',
      String(options.devices),
      '--login-chance',
      '0',
      '--disconnect-chance',
      '0',
      '--tick-ms',
      '3600000',
      '--report-ms',
      '1000',
      '--events',
      events,
      '--failure-rate',
      String(options.failureRate ?? 0),
      '--step-ms',
      options.stepMs ?? '0',
      ...(options.localAddress ? ['--local-address', options.localAddress] : []),
      ...(options.seed !== undefined ? ['--seed', String(options.seed)] : []),
      ...(options.enrollConcurrency ? ['--enroll-concurrency', String(options.enrollConcurrency)] : []),
      ...(options.noSoftware ? ['--no-software'] : []),
    ],
    {},
    /"enrolled"/,
    120_000,
  );
  const onLine = (d: Buffer) => {
    for (const line of String(d).split('\n')) {
      if (line.startsWith('{"at"')) {
        try {
          latest = JSON.parse(line) as Progress;
          if (latest.warnings) {
            console.error(`[sim] ${JSON.stringify(latest.warnings)}`);
          }
        } catch {
          // a line cut in two: the next report follows within a second
        }
      }
    }
  };
  child.process.stdout?.on('data', onLine);
  return {
    process: child.process,
    latest: () => latest,
    connections: () => fs.readFileSync(events, 'utf8').split('\n').filter(Boolean).map(Number),
    output: () => child.output(),
    async stop() {
      await child.stop();
      fs.rmSync(path.dirname(events), { recursive: true, force: true });
    },
  };
}

/** Counts of the tenant's devices: all, and not offline. */
export async function deviceCounts(client: pg.Client, tenantId: number) {
  const r = await client.query<{ total: string; online: string }>(
    `select count(*) as total, count(*) filter (where status <> 'offline') as online from devices where tenant_id = $1`,
    [tenantId],
  );
  return { total: Number(r.rows[0]!.total), online: Number(r.rows[0]!.online) };
}

/**
 * Polls `check` every `everyMs` until it returns a value, or throws after `timeoutMs`. A check
 * that takes long waits four times its own time before the next: the benchmark's own count of a
 * large fleet (230 ms at 17,000 devices, every 200 ms) kept a PostgreSQL backend at two thirds
 * of a core during enrolment, on a machine with two (2026-11-27 22:43).
 */
export async function until<T>(
  check: () => Promise<T | null>,
  timeoutMs: number,
  everyMs = 200,
  what = 'condition',
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const started = Date.now();
    const v = await check();
    if (v !== null) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(Math.max(everyMs, 4 * (Date.now() - started)));
  }
}

/** The server, signed in, with an enrolment token: what both benchmarks start from. */
export async function startFleetServer(options: {
  runtime: string;
  postgres: string;
  /** more server variables (the fleet's WEB_WORKERS, REDIS_URL) */
  env?: Record<string, string>;
}) {
  const throwaway = await prepareDatabase(options.postgres);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-fleet-'));
  const port = await freePort();
  const env = fleetServerEnv(throwaway.url, dataDir, port, options.env);
  const server = await startServer(options.runtime, env);
  const base = `http://127.0.0.1:${port}`;
  const session = await signIn(base);
  const { token } = await api<{ token: string }>(
    base,
    'POST',
    '/api/customer/agents/enrollment-tokens',
    session.token,
    {},
  );
  const db = new pg.Client({ connectionString: throwaway.url });
  await db.connect();
  return {
    throwaway,
    dataDir,
    port,
    env,
    base,
    session,
    enrollToken: token,
    db,
    server,
    async cleanup(keep = false) {
      await db.end().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!keep) {
        await throwaway.drop();
      }
    },
  };
}
