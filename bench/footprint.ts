// Benchmark "footprint": the server's start time and resident memory, at idle
// and with the 25-device demo, on PGlite and on PostgreSQL (docs/development.md, bench/RESULTS.md).
//
//   npm run bench -- footprint            # compiled server, PGlite and PostgreSQL, 3 runs, 10 s settle
//   npm run bench -- footprint --quick    # 1 run, 3 s settle
//   options: --runtime compiled|tsx (compiled: packages/server/dist/main.js, built first if missing)
//            --database both|pglite|postgres --postgres URL (where throwaway databases are created)
//            --root DIR (the checkout to measure, default this one) --runs 3 --settle 10
//            --v8-default (without the V8 flags npm start gives the server: scripts/node-flags.mjs)
//
// Each run starts the real server process on a fresh database (a new DATA_DIR, or a throwaway
// PostgreSQL database) three times: the first start (migrations and the demo seed), a restart
// with no devices, and a restart with the 25-device demo fleet.
// Start time is from spawning the process to the "Outpost is ready" line (printed once it
// listens); RSS is the server process's VmRSS (Linux /proc) after --settle seconds, and for the
// demo after its devices are connected. The median of --runs runs is printed as Markdown rows and
// written to bench/results/footprint.json. With the demo, the server's longest event loop block
// during the settle is measured too (bench/event-loop.ts: the simulated devices' traffic, the
// demo's activity, answered on the event loop that PGlite's queries also run on).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createThrowawayDatabase } from '../packages/server/test/harness';
import { takeEventLoopDelay, eventLoopArgs } from './event-loop';
import { EMBEDDED_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { machine, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runtime: { type: 'string', default: 'compiled' },
    root: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
    database: { type: 'string', default: 'both' },
    postgres: { type: 'string' },
    runs: { type: 'string' },
    settle: { type: 'string' },
    'v8-default': { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const postgresBase =
  values.postgres ??
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const databases = values.database === 'both' ? ['pglite', 'postgres'] : [values.database];
if (!databases.every((d) => d === 'pglite' || d === 'postgres')) {
  throw new Error('--database is both, pglite or postgres');
}
const root = path.resolve(values.root);
const runtime = values.runtime;
if (runtime !== 'compiled' && runtime !== 'tsx') {
  throw new Error('--runtime is compiled or tsx');
}
const settleMs = Number(values.settle ?? (quick ? 3 : 10)) * 1000;
const runs = Number(values.runs ?? (quick ? 1 : 3));
// The same web build for every checkout measured (serving it is not what is measured).
const webDist = path.resolve(import.meta.dirname, '../packages/web/dist');
const command =
  runtime === 'tsx'
    ? ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')]
    : [path.join(root, 'packages/server/dist/main.js')];

if (runtime === 'compiled' && !fs.existsSync(command[0]!)) {
  // a fresh checkout: the server bundle (esbuild, a few seconds)
  const build = spawnSync('npm', ['run', 'build', '-w', '@outpost/server'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error('npm run build -w @outpost/server failed');
  }
}

// the server as `npm start` runs it (scripts/start.mjs), unless --v8-default
const nodeFlags = values['v8-default'] ? [] : EMBEDDED_NODE_FLAGS;

type Sample = { startMs: number; rssMb: number; blockMs: number | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) / 1024;
}

async function measure(env: Record<string, string | undefined>, devices: number): Promise<Sample> {
  const started = performance.now();
  const probeFile = path.join(env.DATA_DIR!, 'event-loop.json');
  const probe = eventLoopArgs(probeFile);
  const child = spawn(process.execPath, [...nodeFlags, ...probe.args, ...command], {
    cwd: root,
    // a variable given as undefined is removed from the child's environment
    env: Object.fromEntries(
      Object.entries({
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...(fs.existsSync(webDist) && { WEB_DIST_DIR: webDist }),
        OUTPOST_DEMO_DEVICES: String(devices),
        ...probe.env,
        ...env,
      }).filter(([, v]) => v !== undefined),
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(output)) {
          resolve();
        }
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`server exited:\n${output.slice(-3000)}`)));
      check();
    });
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  try {
    await waitFor(/Outpost is ready at/);
    const startMs = performance.now() - started;
    if (devices > 0) {
      await waitFor(new RegExp(`demo: ${devices} simulated devices connected`));
    }
    await takeEventLoopDelay(child, probeFile); // from here: the settle's
    await sleep(settleMs);
    const rss = rssMb(child.pid!);
    return { startMs, rssMb: rss, blockMs: (await takeEventLoopDelay(child, probeFile))?.block_ms ?? null };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const cases = ['first start (empty database), no devices', 'restart, no devices', 'restart, 25-device demo'];
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const rows: {
  database: string;
  case: string;
  start_ms: number;
  rss_mb: number;
  event_loop_block_ms: number | null;
}[] = [];
for (const kind of databases) {
  const samples: Sample[][] = cases.map(() => []);
  for (let run = 0; run < runs; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-footprint-'));
    const database = kind === 'postgres' ? await createThrowawayDatabase(postgresBase) : null;
    // PGlite: no DATABASE_URL at all (an inherited one would point the server at PostgreSQL)
    const env = { DATA_DIR: dataDir, DATABASE_URL: database?.url };
    try {
      samples[0]!.push(await measure(env, 0));
      samples[1]!.push(await measure(env, 0));
      samples[2]!.push(await measure(env, 25));
    } finally {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  cases.forEach((name, i) => {
    const s = samples[i]!;
    rows.push({
      database: kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      case: name,
      start_ms: Math.round(median(s.map((x) => x.startMs))),
      rss_mb: Math.round(median(s.map((x) => x.rssMb))),
      // the longest of the runs' (a block, unlike a size, is the worst case)
      event_loop_block_ms: s.every((x) => x.blockMs === null)
        ? null
        : Math.max(...s.map((x) => x.blockMs ?? 0)),
    });
  });
}

const file = writeResult('footprint', {
  quick,
  runtime,
  node_flags: nodeFlags,
  runs,
  settle_s: settleMs / 1000,
  cases: rows,
  machine: machine(),
});
console.log(
  `\nfootprint${quick ? ' --quick' : ''}: ${runtime} server (${nodeFlags.join(' ') || "V8's default sizing"}), median of ${runs} run(s), RSS ${settleMs / 1000} s after ready, Node ${process.version}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);
console.log('| runtime | database | case | start ms | RSS MB | event loop block ms (settle) |');
console.log('|---|---|---|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${runtime} | ${r.database} | ${r.case} | ${r.start_ms} | ${r.rss_mb} | ${r.event_loop_block_ms ?? 'n/a'} |`,
  );
}
console.log(`\nwritten to ${file}`);
