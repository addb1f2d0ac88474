// Shared parts of the benchmarks: child processes (the server, the floor, the load generator each
// run in their own process, never in the benchmark's), free ports, and the results files.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export type Child = { process: ChildProcess; output(): string; stop(): Promise<void> };

/** Spawns `node args…` and resolves once its output matches `ready`. */
export async function startChild(
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
  timeoutMs = 120_000,
): Promise<Child> {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    // a variable given as undefined is removed from the child's environment
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const collect = (d: Buffer) => {
    output = (output + String(d)).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before ready:\n${output}`));
    });
  });
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

export type LoadResult = {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  non2xx: number;
  errors: number;
};

/** Runs autocannon's CLI in its own process against `url` and returns its figures. */
export async function load(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const args = [
    path.join(repoRoot, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(options.connections),
    '-d',
    String(options.seconds),
  ];
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    args.push('-H', `${k}=${v}`);
  }
  args.push(url);
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  child.stderr.on('data', (d: Buffer) => (err += String(d)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) {
    throw new Error(`autocannon failed (${code}): ${err}${out}`);
  }
  const r = JSON.parse(line) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    rps: r.requests.average,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

export function writeResult(name: string, data: unknown): string {
  const dir = path.join(repoRoot, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export function machine() {
  return {
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    load_average: os.loadavg().map((x) => Number(x.toFixed(2))),
    date: new Date().toISOString(),
  };
}

export const geometricMean = (xs: number[]) =>
  xs.length === 0 ? NaN : Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/** The p-th percentile (nearest rank) of xs; NaN when there are none. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
