// Benchmark: GET /api/customer/devices at 100,000 devices in one tenant.
// Superseded by bench/api.ts, which runs the load generator in its own process; this one
// runs autocannon inside the server's process and is kept to compare with the earlier figures.
//
//   npx tsx bench/device-list.ts                       # PGlite in memory
//   DATABASE_URL=postgres://… npx tsx bench/device-list.ts   # PostgreSQL (use a throwaway database)
//   options: --devices 100000 --duration 10 --connections 10
//
// It builds the real server (same routes, auth, validation and queries), fills one tenant with N
// devices across three sites, signs in, and drives each list query with autocannon. Results go to
// stdout as a Markdown table; bench/RESULTS.md keeps the recorded runs.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { openDatabase } from '../packages/server/src/db/client';
import { sites } from '../packages/server/src/db/schema/index';
import { createTenant } from '../packages/server/src/modules/tenants/tenants.service';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const N = Number(values.devices);
const databaseUrl = process.env.DATABASE_URL;

const database = await openDatabase({ databaseUrl });
const { db } = database;
const adminEmail = `bench-${Date.now()}@example.com`;
const { tenant } = await createTenant(db, {
  name: `Bench ${Date.now()}`,
  plan: 'Enterprise',
  maxAgents: null,
  licenseExpiry: null,
  adminEmail,
  adminName: 'Bench Admin',
});
const siteRows = await db
  .insert(sites)
  .values(
    ['HQ', 'LON', 'NYC'].map((code) => ({ tenantId: tenant.id, siteName: `Site ${code}`, siteCode: code })),
  )
  .returning({ id: sites.id });
const [s1, s2, s3] = siteRows.map((s) => s.id) as [number, number, number];

const started = Date.now();
const CHUNK = 20_000;
for (let from = 1; from <= N; from += CHUNK) {
  const to = Math.min(N, from + CHUNK - 1);
  await db.execute(sql`
    insert into devices (tenant_id, site_id, device_guid, secret_hash, hostname, ip_address, os_type, os_version,
                         status, last_seen, serial_number, agent_version, created_at, updated_at)
    select ${tenant.id}, (array[${s1}, ${s2}, ${s3}]::int[])[1 + i % 3], gen_random_uuid(), 'bench',
           'PC-' || lpad(i::text, 6, '0'),
           '10.' || ((i / 65536) % 256) || '.' || ((i / 256) % 256) || '.' || (i % 256),
           case when i % 5 = 0 then 'macos' else 'windows' end,
           case when i % 5 = 0 then 'macOS 14.4 Sonoma' else 'Windows 11 Pro 23H2' end,
           (array['online', 'offline', 'loggedin', 'error'])[1 + i % 4],
           now() - (i % 10000) * interval '1 minute',
           'SN' || lpad(i::text, 8, '0'), '1.0.0', now(), now()
    from generate_series(${from}::int, ${to}::int) as i`);
}
await db.execute(sql`analyze devices`);
const seededMs = Date.now() - started;

const config = loadConfig({
  DATA_DIR: `/tmp/outpost-bench-${process.pid}`,
  SESSION_SECRET: 'bench-session-secret-0123456789-abcdef',
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  PORT: '0',
  OUTPOST_DEMO: '0',
  OUTPOST_ALLOW_DEV_LOGIN: '1',
});
const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const signIn = await fetch(`${base}/api/customer/auth/dev`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: adminEmail }),
});
const token = ((await signIn.json()) as { data: { token: string } }).data.token;

const cases: [string, string][] = [
  ['first page (20)', '/api/customer/devices'],
  ['page 100 of 1000 (limit 100)', '/api/customer/devices?page=100&limit=100'],
  ['last page (20)', `/api/customer/devices?page=${Math.ceil(N / 20)}`],
  ['status=offline', '/api/customer/devices?status=offline'],
  ['status=online (online + loggedin)', '/api/customer/devices?status=online'],
  ['os_type=macos & site', `/api/customer/devices?os_type=macos&site_id=${s2}`],
  ['search hostname "pc-0421"', '/api/customer/devices?search=pc-0421'],
  ['search IP "10.1.2."', '/api/customer/devices?search=10.1.2.'],
  ['search + status + site', `/api/customer/devices?search=pc-04&status=error&site_id=${s1}`],
  ['dashboard stats', '/api/customer/devices/stats/dashboard'],
];

const rows: string[] = [];
for (const [name, path] of cases) {
  const check = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  if (!check.ok) {
    throw new Error(`${path}: ${check.status} ${await check.text()}`);
  }
  const r = await autocannon({
    url: base + path,
    connections: Number(values.connections),
    duration: Number(values.duration),
    headers: { authorization: `Bearer ${token}` },
  });
  rows.push(
    `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p97_5} | ${r.latency.p99} | ${r.non2xx + r.errors} |`,
  );
  console.error(`done: ${name}`);
}

console.log(
  `\n${database.kind}, ${N.toLocaleString('en')} devices in one tenant (seeded in ${(seededMs / 1000).toFixed(1)} s), ` +
    `${values.connections} connections × ${values.duration} s per case, Node ${process.version}\n`,
);
console.log('| case | req/s | p50 ms | p97.5 ms | p99 ms | errors |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(rows.join('\n'));
await app.close();
await database.close();
