// Benchmark "software": the fleet's software list and a 100,000-row CSV export on PostgreSQL
// (docs/product/device-sets.md#fleet-software, #exports).
//
//   npm run bench -- software            # 100,000 devices × 20 titles (300 titles, 3 versions)
//   npm run bench -- software --quick    # 10,000 devices, shorter runs
//   options: --postgres URL (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL or
//            postgres://postgres@127.0.0.1:5432/postgres) --devices N --duration S --connections N
//
// 1. A throwaway database, migrated and bulk-seeded (api-seed.ts: the measured tenant alone);
//    the seed writes device_software directly, so the counts are rebuilt as migration 0021 does.
// 2. The server (tsx) on its own port.
// 3. The software list (by name, by devices, a search) under autocannon: p99 ≤ 50 ms.
// 4. GET /api/customer/devices as CSV, read to the end: rows per second (≥ 50,000) and the server's
//    resident memory sampled every 20 ms from /proc (growth ≤ 50 MB).
// 5. Prints the figures and writes bench/results/software.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../packages/server/src/config';
import { openDatabase } from '../packages/server/src/db/client';
import { openToolSession } from '../packages/server/src/modules/auth/auth.service';
import { createSessionTokens } from '../packages/server/src/modules/auth/session-token';
import { createThrowawayDatabase } from '../packages/server/test/harness';
import { seed } from './api-seed';
import { serverArgs } from './fleet-setup';
import { freePort, load, machine, startChild, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    postgres: { type: 'string' },
    devices: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
  },
});
const quick = values.quick;
const devices = Number(values.devices ?? (quick ? 10_000 : 100_000));
const seconds = Number(values.duration ?? (quick ? 3 : 10));
const connections = Number(values.connections);
const baseUrl =
  values.postgres ??
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const SESSION_SECRET = 'bench-session-secret-0123456789-abcdef';
const MB = 1024 * 1024;
const log = (line: string) => console.error(`[software] ${line}`);

/** Resident memory of a process in bytes (Linux /proc; null elsewhere). */
function rssOf(pid: number | undefined): number | null {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.replace(/\D+/g, '')) * 1024 : null;
  } catch {
    return null;
  }
}

const throwaway = await createThrowawayDatabase(baseUrl);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-software-'));
const children: { stop(): Promise<void> }[] = [];
try {
  const database = await openDatabase({ databaseUrl: throwaway.url });
  const pool = new pg.Pool({ connectionString: throwaway.url, max: 1 });
  pool.on('error', () => undefined);
  const seeded = await seed(pool, { devices, total: devices, others: 0 }, log);
  // the seed bypasses the devices module: count its rows as the migration's backfill does
  await pool.query(`delete from software_versions`);
  await pool.query(`
    insert into software_versions (tenant_id, site_key, name, version, publisher, device_count)
    select s.tenant_id, coalesce(d.site_id, 0), s.name, s.version, max(s.publisher), count(*)::int
    from device_software s join devices d on d.id = s.device_id group by 1, 2, 3, 4`);
  await pool.query('analyze');
  const counts = (await pool.query('select count(*)::int as n from software_versions')).rows[0] as {
    n: number;
  };
  await pool.end();
  log(
    `seeded ${devices.toLocaleString('en')} devices (${counts.n} count rows) in ${seeded.seconds.toFixed(1)} s`,
  );

  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET, LOG_LEVEL: 'silent', OUTPOST_DEMO: '0' });
  const token = await openToolSession(database.db, createSessionTokens(config.sessionSecret), seeded.email);
  await database.close();
  const port = await freePort();
  const server = await startChild(
    serverArgs('tsx'),
    {
      DATABASE_URL: throwaway.url,
      SESSION_SECRET,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      OUTPOST_DEMO: '0',
      AGENT_PRESENCE_GRACE_MS: '3600000',
    },
    /Outpost is ready at/,
  );
  children.push(server);
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${token}` };

  // ---- the software list
  const listCases = {
    'software by name': '/api/customer/software?limit=25',
    'software by devices': '/api/customer/software?limit=25&sort=devices',
    'software search': '/api/customer/software?limit=25&search=app-1',
    'software page 5': '/api/customer/software?limit=25&page=5',
  };
  const list: Record<string, Awaited<ReturnType<typeof load>>> = {};
  for (const [name, url] of Object.entries(listCases)) {
    await load(base + url, { connections, seconds: 1, headers });
    list[name] = await load(base + url, { connections, seconds, headers });
    log(
      `${name}: ${list[name].rps.toFixed(0)} req/s, p50 ${list[name].p50_ms} ms, p99 ${list[name].p99_ms} ms`,
    );
  }

  // ---- the CSV export
  const pid = server.process.pid;
  const rssBefore = rssOf(pid) ?? 0;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid) ?? 0);
  }, 20);
  const started = performance.now();
  const res = await fetch(`${base}/api/customer/devices`, { headers: { ...headers, accept: 'text/csv' } });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) {
      if (byte === 10) {
        lines++;
      }
    }
  }
  const exportSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rows = lines - 1;
  const exported = {
    status: res.status,
    rows,
    mb: bytes / MB,
    seconds: exportSeconds,
    rows_per_s: rows / exportSeconds,
    rss_growth_mb: (rssPeak - rssBefore) / MB,
  };
  log(
    `export: ${rows.toLocaleString('en')} rows, ${exported.mb.toFixed(1)} MB in ${exportSeconds.toFixed(2)} s = ` +
      `${exported.rows_per_s.toFixed(0)} rows/s; server RSS +${exported.rss_growth_mb.toFixed(1)} MB`,
  );
  const targets = {
    list_p99_le_50ms: Object.values(list).every((r) => r.p99_ms <= 50),
    export_rows_per_s_ge_50000: exported.rows_per_s >= 50_000,
    export_rss_growth_le_50mb: exported.rss_growth_mb <= 50,
  };
  log(`targets: ${JSON.stringify(targets)}`);
  const file = writeResult('software', {
    machine: machine(),
    quick,
    devices,
    list,
    export: exported,
    targets,
  });
  log(`wrote ${file}`);
} finally {
  for (const c of children.reverse()) {
    await c.stop();
  }
  await throwaway.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
