import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Helpers for the fault tests: a PostgreSQL and a Redis of the test's own, which it may
// stop and start without touching the shared ones, and the server as a child process it may kill.

/** PostgreSQL's server binaries: PG_BIN, else the newest Debian/Ubuntu installation. */
function pgBin(): string {
  if (process.env.PG_BIN) {
    return process.env.PG_BIN;
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) {
    throw new Error('PostgreSQL server binaries not found: install PostgreSQL or set PG_BIN');
  }
  return path.join(root, versions[0], 'bin');
}
const SERVER_MAIN = path.join(import.meta.dirname, '..', '..', 'src', 'main.ts');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
const isRoot = () => process.getuid?.() === 0;
function runAsPostgres(cmd: string, args: string[]) {
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 }).toString();
}

export type OwnPostgres = {
  url: string;
  port: number;
  start(): void;
  /** `pg_ctl stop -m fast`: open connections are terminated, new ones refused */
  stop(): void;
  destroy(): void;
};

/** A fresh PostgreSQL cluster in a temp folder on its own port (trust authentication, fsync off). */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const PG_BIN = pgBin();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-pg-'));
  if (isRoot()) {
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const data = path.join(dir, 'data');
  runAsPostgres(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const pgctl = (args: string[]) => runAsPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', data, ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = () => void pgctl(['-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  let running = false;
  const destroy = () => {
    process.off('exit', destroy);
    if (running) {
      running = false;
      try {
        pgctl(['-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // Even when the test times out before its cleanup, the cluster does not outlive the run.
  process.on('exit', destroy);
  start();
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      start();
      running = true;
    },
    stop() {
      pgctl(['-m', 'fast', '-w', 'stop']);
      running = false;
    },
    destroy,
  };
}

export type OwnRedis = { url: string; start(): Promise<void>; stop(): Promise<void> };

/** redis-server on its own port, no persistence. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitForPort(port);
  };
  const killNow = () => {
    child?.kill('SIGKILL');
  };
  process.on('exit', killNow); // never outlives the test run
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const c = child;
      child = null;
      if (c && c.exitCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await exited;
      }
    },
  };
}

async function waitForPort(port: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`nothing listens on port ${port}`);
    }
    await sleep(100);
  }
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hooks, no flush, as a crash or the OOM killer */
  kill(): Promise<void>;
};

/**
 * The real server (main.ts through tsx) as a child process on `port`, resolved once /api/health
 * answers 200. `env` is the server's environment (DATABASE_URL, DATA_DIR, …).
 */
export async function startServerProcess(
  port: number,
  env: Record<string, string>,
  /** how long it may take to answer (several workers start slower on a loaded machine) */
  timeoutMs = 45_000,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SESSION_SECRET: 'fault-tests-session-secret-0123456789abcdef',
      OUTPOST_DEMO: '0',
      OUTPOST_ALLOW_DEV_LOGIN: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const killNow = () => child.kill('SIGKILL');
  process.on('exit', killNow); // never outlives the test run
  child.once('exit', () => process.off('exit', killNow));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited (${child.exitCode}):\n${out}`);
    }
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) {
      break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become healthy:\n${out}`);
    }
    await sleep(200);
  }
  return {
    url,
    child,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Runs the server and waits for it to exit on its own (a start-up refusal); its code and output. */
export async function runServerToExit(
  env: Record<string, string>,
  timeoutMs = 45_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      SESSION_SECRET: 'fault-tests-session-secret-0123456789abcdef',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

/** A process that must end with the test run even if the test fails half-way. */
export function stopWithTest(p: { kill(): Promise<void> } | null | undefined) {
  return p?.kill().catch(() => undefined);
}
