// Benchmark: the metrics history (docs/decisions/2026-11-27-metrics-history.md).
//
//   npm run bench -- metrics                  # PGlite in memory: 10,000 devices, 5 minutes; 1,000 devices' 30 days
//   npm run bench -- metrics --quick          # 1,000 devices, 2 minutes; 100 devices' 30 days
//   DATABASE_URL=postgres://… npm run bench -- metrics   # PostgreSQL
//   options: --devices N --minutes M --history-devices H --queries Q
//   --seed-history   only seeds (b)'s history and ends: seeding 100,000 devices' 30 days takes about
//                    35 minutes and measures nothing, so it may run while the machine is busy; a
//                    later run with the same H on the same database finds it and only measures.
//
// (a) Ingestion: N devices each send one sample a minute. The fleet's sockets are not part of it
// (bench/fleet.ts measures them): each simulated minute hands N samples to the metrics service's
// record() and flushes, as the server's one-second flush does. Reported: rows written per second
// of writing, bytes the tables and indexes grew per row, and the server's CPU per fleet-minute
// (so the load at 100,000 devices is ten times the line for 10,000).
//
// (b) The 30-day chart: H devices' 30 days of 15-minute rollups (2,880 rows each), inserted in
// time order as production writes them (every device's bucket, then the next bucket), so one
// device's rows are scattered over the table as they would be; then the 30-day answer of one
// device, Q times. The query is a primary-key range scan of one device (device_id, bucket): its
// cost is the index's depth plus one heap page per row, whatever the number of other devices; H
// sets how deep the index is (1,000 devices: 2.9 M rows; 100,000 would be 288 M, one more level).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { MetricsMessage } from '../packages/contract/src/agent-monitoring';
import { openDatabase } from '../packages/server/src/db/client';
import { rowsOf } from '../packages/server/src/lib/db';
import { createMetricsService } from '../packages/server/src/modules/metrics/metrics.service';
import { createTenant } from '../packages/server/src/modules/tenants/tenants.service';
import { machine, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    minutes: { type: 'string' },
    'history-devices': { type: 'string' },
    queries: { type: 'string' },
    'seed-history': { type: 'boolean', default: false },
  },
});
const seedOnly = values['seed-history'];
const N = seedOnly ? 0 : Number(values.devices ?? (values.quick ? 1_000 : 10_000));
const M = seedOnly ? 0 : Number(values.minutes ?? (values.quick ? 2 : 5));
const H = Number(values['history-devices'] ?? (values.quick ? 100 : 1_000));
const Q = Number(values.queries ?? (values.quick ? 200 : 1_000));
const log = { error: console.error, debug: () => undefined } as unknown as FastifyBaseLogger;

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const { db } = database;
const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q))[0]!;
async function benchTenant(name: string, count: number): Promise<{ tenantId: number; ids: number[] }> {
  const { tenant } = await createTenant(db, {
    name,
    plan: 'Enterprise',
    maxAgents: null,
    licenseExpiry: null,
    adminEmail: `bench-metrics-${Date.now()}-${count}@example.com`,
    adminName: 'Bench Admin',
  });
  await db.execute(sql`
    insert into devices (tenant_id, device_guid, secret_hash, hostname, os_type, status, created_at, updated_at)
    select ${tenant.id}, gen_random_uuid(), 'bench', 'PC-' || lpad(i::text, 6, '0'), 'windows', 'online', now(), now()
      from generate_series(1, ${count}::int) as i`);
  return { tenantId: tenant.id, ids: await deviceIds(tenant.id) };
}
async function deviceIds(tenantId: number): Promise<number[]> {
  return rowsOf<{ id: number }>(
    await db.execute(sql`select id from devices where tenant_id = ${tenantId} order by id`),
  ).map((r) => Number(r.id));
}
const size = async () =>
  Number(
    (
      await one<{ bytes: string }>(sql`select (pg_total_relation_size('device_metric_minutes')
        + pg_total_relation_size('device_metric_volumes'))::text as bytes`)
    ).bytes,
  );

// (a) ingestion
const { tenantId: ingestTenant, ids } = await benchTenant(`Bench metrics ${Date.now()}`, N);
const start = Math.floor(Date.now() / 60_000) * 60_000 - M * 60_000;
let clock = start;
let written = 0;
const service = createMetricsService({
  db,
  log,
  now: () => clock,
  onSamples: (outcome, n) => {
    if (outcome === 'written') {
      written += n;
    }
  },
});
const sample = (i: number, at: number): MetricsMessage => ({
  type: 'metrics',
  sampledAt: new Date(at).toISOString(),
  cpu: (i * 7) % 100,
  cpuMax: Math.min(100, ((i * 7) % 100) + 10),
  memory: 40 + (i % 50),
  volumes: [
    { mount: 'C:', usedPercent: 50 + (i % 40), totalBytes: 512e9, freeBytes: 100e9 },
    { mount: 'D:', usedPercent: 20, totalBytes: 1e12, freeBytes: 800e9 },
  ],
});
const sizeBefore = await size();
let writeMs = 0;
const cpuBefore = process.cpuUsage();
for (let m = 0; m < M; m++) {
  clock = start + m * 60_000 + 30_000;
  const at = start + m * 60_000;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    service.record({ id: ids[i]!, tenantId: ingestTenant, siteId: null, deviceGuid: '' }, sample(i, at));
  }
  await service.flush();
  writeMs += performance.now() - t0;
}
const cpu = process.cpuUsage(cpuBefore);
const grown = (await size()) - sizeBefore;
const ingestion = {
  devices: N,
  minutes: M,
  rows_written: written,
  rows_per_second: Math.round(written / (writeMs / 1000)),
  bytes_per_row: Math.round(grown / Math.max(1, written)),
  server_cpu_ms_per_fleet_minute: Math.round((cpu.user + cpu.system) / 1000 / M),
};
console.error('ingestion', ingestion);

// (b) the 30-day chart
const nowMinute = Math.floor(Date.now() / 60_000);
const firstBucket = nowMinute - (nowMinute % 15) - 30 * 24 * 60;
// The history lives in its own tenant, named after H, so a later run can find and reuse it.
const historyName = `Bench metrics history ${H}`;
const found = rowsOf<{ id: number }>(
  await db.execute(sql`select t.id from tenants t
     where t.tenant_name = ${historyName}
       and (select count(*) from device_metric_rollups r
             where r.device_id = (select max(d.id) from devices d where d.tenant_id = t.id)) >= 2880
     order by t.id desc limit 1`),
)[0];
const history = found
  ? { tenantId: Number(found.id), ids: await deviceIds(Number(found.id)) }
  : await benchTenant(historyName, H);
const seedStart = performance.now();
for (let b = 0; !found && b < 2_880; b += 96) {
  await db.execute(sql`
    insert into device_metric_rollups (device_id, bucket, cpu, cpu_max, memory, memory_max, disk)
    select d.id, ${firstBucket} + s.k * 15, (d.id * 7 + s.k) % 10000, 10000, 5000, 6000, 7000
      from generate_series(${b}::int, ${Math.min(2_879, b + 95)}::int) as s(k)
      cross join (select id from devices where tenant_id = ${history.tenantId}) d
     order by s.k, d.id
    on conflict do nothing`);
}
if (!found) {
  await db.execute(sql`vacuum (analyze) device_metric_rollups`);
}
if (seedOnly) {
  console.log(
    `Seeded ${H} devices' 30 days as "${historyName}" in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`,
  );
  await service.stop();
  await database.close();
  process.exit(0);
}
const seedSeconds = (performance.now() - seedStart) / 1000;
const rollupRows = Number(
  (await one<{ n: string }>(sql`select count(*)::text as n from device_metric_rollups`)).n,
);
const ctx = { tenantId: history.tenantId, siteAccessType: 'all', siteIds: [] } as never;
const queried = history.ids[Math.floor(H / 2)]!;
clock = Date.now();
const times: number[] = [];
let points = 0;
for (let q = 0; q < Q; q++) {
  const t0 = performance.now();
  points = (await service.history(ctx, String(queried), '30d')).points.length;
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const pct = (p: number) =>
  Number(times[Math.min(times.length - 1, Math.floor(times.length * p))]!.toFixed(2));
const chart = {
  history_devices: H,
  rollup_rows: rollupRows,
  seeded_seconds: found ? null : Number(seedSeconds.toFixed(1)),
  points,
  queries: Q,
  p50_ms: pct(0.5),
  p99_ms: pct(0.99),
};
console.error('30-day chart', chart);

writeResult('metrics', { machine: machine(), database: database.kind, ingestion, chart });
console.log(`\n${database.kind}, Node ${process.version}\n`);
console.log('| ingestion | devices | rows/s written | bytes/row | CPU ms per fleet-minute |');
console.log('|---|---:|---:|---:|---:|');
console.log(
  `| ${M} minutes | ${N} | ${ingestion.rows_per_second} | ${ingestion.bytes_per_row} | ${ingestion.server_cpu_ms_per_fleet_minute} |`,
);
console.log('\n| 30-day chart | devices with 30 days | rollup rows | points | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(`| ${Q} queries | ${H} | ${rollupRows} | ${points} | ${chart.p50_ms} | ${chart.p99_ms} |`);
await service.stop();
await database.close();
