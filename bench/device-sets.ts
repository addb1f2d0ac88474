// Benchmark: the device list filtered by tag, by group and by custom field
// (docs/product/device-sets.md#device-list-filters) at 100,000 devices in one tenant; target p99
// ≤ 25 ms per case.
//
//   npm run bench -- device-sets                 # PGlite in memory, 100,000 devices
//   npm run bench -- device-sets --quick         # 10,000 devices, 3 s per case
//   DATABASE_URL=postgres://… npm run bench -- device-sets   # PostgreSQL (a throwaway database)
//   options: --devices N --duration S --connections C
//
// It builds the real server (routes, auth, validation, queries), fills one tenant with N devices
// across three sites, tags (a 1 % tag, a 30 % tag), a static group of 10 % of the devices and two
// custom fields (a text field on every device, a number field on half), then drives each case
// with autocannon in its own process. The set rows are written with SQL straight away (no module
// is asked: this measures reads). Results go to stdout as a Markdown table and to
// bench/results/device-sets.json with the load average.
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { openDatabase } from '../packages/server/src/db/client';
import { sites } from '../packages/server/src/db/schema/index';
import { rowsOf } from '../packages/server/src/lib/db';
import { createTenant } from '../packages/server/src/modules/tenants/tenants.service';
import { load, machine, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
  },
});
const N = Number(values.devices ?? (values.quick ? 10_000 : 100_000));
const duration = Number(values.duration ?? (values.quick ? 3 : 10));
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const { db } = database;
const adminEmail = `bench-sets-${Date.now()}@example.com`;
const { tenant } = await createTenant(db, {
  name: `Bench sets ${Date.now()}`,
  plan: 'Enterprise',
  maxAgents: null,
  licenseExpiry: null,
  adminEmail,
  adminName: 'Bench Admin',
});
const t = tenant.id;
const siteIds = (
  await db
    .insert(sites)
    .values(['HQ', 'LON', 'NYC'].map((code) => ({ tenantId: t, siteName: `Site ${code}`, siteCode: code })))
    .returning({ id: sites.id })
).map((s) => s.id);

const started = Date.now();
for (let from = 1; from <= N; from += 20_000) {
  const to = Math.min(N, from + 19_999);
  await db.execute(sql`
    insert into devices (tenant_id, site_id, device_guid, secret_hash, hostname, ip_address, os_type, status,
                         last_seen, serial_number, agent_version, created_at, updated_at)
    select ${t}, (${sql.param(siteIds)}::int[])[1 + i % 3], gen_random_uuid(), 'bench',
           'PC-' || lpad(i::text, 6, '0'), '10.' || ((i / 65536) % 256) || '.' || ((i / 256) % 256) || '.' || (i % 256),
           case when i % 5 = 0 then 'macos' else 'windows' end, (array['online', 'offline', 'loggedin', 'error'])[1 + i % 4],
           now(), 'SN' || lpad(i::text, 8, '0'), '1.0.0', now(), now()
    from generate_series(${from}::int, ${to}::int) as i`);
}
const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q))[0]!;
const rare = await one<{ id: number }>(
  sql`insert into tags (tenant_id, name, color) values (${t}, 'Rare', 'red') returning id`,
);
const common = await one<{ id: number }>(
  sql`insert into tags (tenant_id, name, color) values (${t}, 'Common', 'blue') returning id`,
);
await db.execute(sql`insert into device_tags (tenant_id, device_id, tag_id)
  select ${t}::int, id, ${rare.id}::int from devices where tenant_id = ${t} and id % 100 = 0
  union all select ${t}::int, id, ${common.id}::int from devices where tenant_id = ${t} and id % 10 < 3`);
const group = await one<{ id: number }>(
  sql`insert into device_groups (tenant_id, name, kind) values (${t}, 'Servers', 'static') returning id`,
);
await db.execute(sql`insert into device_group_members (group_id, device_id, tenant_id)
  select ${group.id}::int, id, ${t}::int from devices where tenant_id = ${t} and id % 10 = 7`);
const owner = await one<{ id: number }>(sql`insert into custom_fields (tenant_id, key, name, field_type)
  values (${t}, 'owner', 'Owner', 'text') returning id`);
const ram = await one<{ id: number }>(sql`insert into custom_fields (tenant_id, key, name, field_type)
  values (${t}, 'ram_gb', 'RAM (GB)', 'number') returning id`);
await db.execute(sql`insert into device_field_values (tenant_id, device_id, field_id, value_text)
  select ${t}::int, id, ${owner.id}::int, (array['Finance', 'Sales', 'IT', 'Ops', 'Legal'])[1 + id % 5] from devices where tenant_id = ${t}`);
await db.execute(sql`insert into device_field_values (tenant_id, device_id, field_id, value_text, value_number)
  select ${t}::int, id, ${ram.id}::int, ((id % 8 + 1) * 8)::text, (id % 8 + 1) * 8 from devices where tenant_id = ${t} and id % 2 = 0`);
// as bench/api-seed.ts: the visibility map set, as autovacuum leaves a table between bursts of writes
await db.execute(sql`vacuum (analyze)`);
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

const list = '/api/customer/devices';
const cases: [string, string][] = [
  ['baseline: no filter (for comparison)', list],
  ['tag, 1 % of devices', `${list}?tag_id=${rare.id}`],
  ['tag, 30 % of devices', `${list}?tag_id=${common.id}`],
  ['tag 30 %, page 50', `${list}?tag_id=${common.id}&page=50`],
  ['tag + site + status', `${list}?tag_id=${common.id}&site_id=${siteIds[1]}&status=offline`],
  ['group, 10 % of devices', `${list}?group_id=${group.id}`],
  ['text field = value (20 %)', `${list}?field_key=owner&field_value=Finance`],
  ['number field > 48 (12.5 %)', `${list}?field_key=ram_gb&field_op=gt&field_value=48`],
  ['no filter, tags + 2 field columns', `${list}?fields=owner,ram_gb`],
];

const rows: string[] = [];
const results: Record<string, unknown>[] = [];
const headers = { authorization: `Bearer ${token}` };
const connections = Number(values.connections);
for (const [name, path] of cases) {
  const check = await fetch(base + path, { headers });
  if (!check.ok) {
    throw new Error(`${path}: ${check.status} ${await check.text()}`);
  }
  // autocannon in its own process (bench/lib.ts), as bench/api.ts: the server keeps this one
  await load(base + path, { connections, seconds: 2, headers });
  const r = await load(base + path, { connections, seconds: duration, headers });
  const verdict = r.p99_ms <= 25 ? 'ok' : 'over';
  rows.push(
    `| ${name} | ${r.rps.toFixed(0)} | ${r.p50_ms} | ${r.p99_ms} | ${verdict} | ${r.non2xx + r.errors} |`,
  );
  results.push({ name, path, ...r });
  console.error(`done: ${name}`);
}
writeResult('device-sets', {
  machine: machine(),
  database: database.kind,
  devices: N,
  connections,
  duration,
  results,
});

console.log(
  `\n${database.kind}, ${N.toLocaleString('en')} devices in one tenant (seeded in ${(seededMs / 1000).toFixed(1)} s), ` +
    `${values.connections} connections × ${duration} s per case, Node ${process.version}\n`,
);
console.log('| case | req/s | p50 ms | p99 ms | p99 ≤ 25 ms | errors |');
console.log('|---|---:|---:|---:|---|---:|');
console.log(rows.join('\n'));
await app.close();
await database.close();
