// Benchmark "package-import" (SECURITY.md R2-6): how long one package import takes on the embedded
// database (PGlite), and how long /api/health waits meanwhile (PGlite runs one statement at a
// time for the whole process, so a long import holds every other request).
//
//   npm run bench -- package-import                 # imports of 200 and 3,000 steps
//   npm run bench -- package-import --quick         # 200 steps only
//   options: --steps 200,3000 --runtime tsx|compiled
//
// The server runs in its own process on a fresh PGlite DATA_DIR with the demo organisation; the
// benchmark signs in with dev sign-in, then for each size posts one import while polling
// /api/health every 20 ms, and reports the import's status and wall time and the slowest health
// answer during it. Writes bench/results/package-import.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverArgs } from './fleet-setup';
import { freePort, machine, startChild, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    steps: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
  },
});
const sizes = (values.steps ?? (values.quick ? '200' : '200,3000')).split(',').map(Number);
const log = (line: string) => console.error(`[package-import] ${line}`);

const doc = (n: number) => ({
  format: 'outpost.package',
  version: 1,
  package: { name: `Bench import ${n}` },
  steps: Array.from({ length: n }, (_, i) => ({
    step_name: `Step ${i + 1}`,
    step_type: 'CMD',
    step_details: { command: `echo step ${i + 1} ${'x'.repeat(40)}` },
  })),
});

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-import-'));
fs.chmodSync(dataDir, 0o700);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startChild(
  serverArgs(values.runtime),
  {
    DATABASE_URL: undefined,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    OUTPOST_DEMO: '1',
    OUTPOST_ALLOW_DEV_LOGIN: '1',
  },
  /Outpost is ready at/,
  300_000,
);
try {
  const signIn = await fetch(`${base}/api/customer/auth/dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@acme.example' }),
  });
  const token = ((await signIn.json()) as { data: { token: string } }).data.token;
  const results = [];
  for (const n of sizes) {
    const body = JSON.stringify(doc(n));
    let polling = true;
    let slowestHealthMs = 0;
    const poll = (async () => {
      while (polling) {
        const t = performance.now();
        await fetch(`${base}/api/health`);
        slowestHealthMs = Math.max(slowestHealthMs, performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    const res = await fetch(`${base}/api/customer/deployment-packages/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    const importMs = performance.now() - t0;
    await res.text();
    polling = false;
    await poll;
    const row = {
      steps: n,
      body_kb: Math.round(body.length / 1024),
      status: res.status,
      import_ms: Math.round(importMs),
      slowest_health_ms: Math.round(slowestHealthMs),
    };
    results.push(row);
    log(JSON.stringify(row));
  }
  const file = writeResult('package-import', { machine: machine(), loadavg: os.loadavg(), results });
  log(`wrote ${file}`);
  console.log(JSON.stringify({ loadavg: os.loadavg().map((x) => Number(x.toFixed(2))), results }, null, 2));
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
