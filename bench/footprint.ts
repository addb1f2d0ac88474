// Benchmark: the server's start time and resident memory (README "Development", bench/RESULTS.md).
//
//   npx tsx bench/footprint.ts --runtime compiled                  # PGlite, packages/server/dist/main.js
//   npx tsx bench/footprint.ts --runtime tsx                       # PGlite, src/main.ts through tsx
//   npx tsx bench/footprint.ts --runtime compiled --postgres postgres://postgres@127.0.0.1:5432/test
//   options: --root DIR (the checkout to measure, default this one) --runs 3 --settle 10
//
// Each run starts the real server process on a fresh database (a new DATA_DIR, or a throwaway
// PostgreSQL database created beside the --postgres one) three times: the first start (migrations
// and the demo seed), a restart with no devices, and a restart with the 25-device demo fleet.
// Start time is from spawning the process to the "Outpost is ready" line (printed once it
// listens); RSS is the server process's VmRSS (Linux /proc) after --settle seconds, and for the
// demo after its devices are connected. The median of --runs runs is printed as Markdown rows.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createThrowawayDatabase } from '../packages/server/test/harness';

const { values } = parseArgs({
  options: {
    runtime: { type: 'string', default: 'compiled' },
    root: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
    postgres: { type: 'string' },
    runs: { type: 'string', default: '3' },
    settle: { type: 'string', default: '10' },
  },
});
const root = path.resolve(values.root);
const runtime = values.runtime;
if (runtime !== 'compiled' && runtime !== 'tsx') {
  throw new Error('--runtime is compiled or tsx');
}
const settleMs = Number(values.settle) * 1000;
const runs = Number(values.runs);
// The same web build for every checkout measured (serving it is not what is measured).
const webDist = path.resolve(import.meta.dirname, '../packages/web/dist');
const command =
  runtime === 'tsx'
    ? ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')]
    : [path.join(root, 'packages/server/dist/main.js')];

type Sample = { startMs: number; rssMb: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) / 1024;
}

async function measure(env: Record<string, string>, devices: number): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: webDist,
      OUTPOST_DEMO_DEVICES: String(devices),
      ...env,
    },
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
    await sleep(settleMs);
    return { startMs, rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const cases = ['first start (empty database), no devices', 'restart, no devices', 'restart, 25-device demo'];
const samples: Sample[][] = cases.map(() => []);
for (let run = 0; run < runs; run++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-footprint-'));
  const database = values.postgres ? await createThrowawayDatabase(values.postgres) : null;
  const env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
  try {
    samples[0]!.push(await measure(env, 0));
    samples[1]!.push(await measure(env, 0));
    samples[2]!.push(await measure(env, 25));
  } finally {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const db = values.postgres ? 'PostgreSQL' : 'PGlite';
console.log(`\n${runtime} on ${db}, median of ${runs} runs, Node ${process.version}\n`);
console.log('| runtime | database | case | start ms | RSS MB |');
console.log('|---|---|---|---:|---:|');
cases.forEach((name, i) => {
  const s = samples[i]!;
  const start = Math.round(median(s.map((x) => x.startMs)));
  const rss = Math.round(median(s.map((x) => x.rssMb)));
  console.log(`| ${runtime} | ${db} | ${name} | ${start} | ${rss} |`);
});
