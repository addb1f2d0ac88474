// Benchmark: dynamic device groups at 100,000 devices in one tenant
// (docs/product/device-sets.md#groups "Membership").
//
//   npm run bench -- groups [--quick]                    # PGlite in memory
//   DATABASE_URL=postgres://… npm run bench -- groups    # PostgreSQL (use a throwaway database)
//   options: --devices 100000 --groups 30 --runs 50
//
// It fills one tenant with N devices across three sites, five software titles each (a dotted
// version that varies per device), then measures what the groups module does: materialising a new
// dynamic group over every device (one DELETE and one INSERT … SELECT; the target is ≤ 2 s on
// PostgreSQL), and re-evaluating one changed device against every dynamic group of the tenant
// (one statement; the target is ≤ 5 ms of server CPU with tens of groups).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { GroupFilter } from '../packages/contract/src/groups';
import { openDatabase } from '../packages/server/src/db/client';
import { rowsOf } from '../packages/server/src/lib/db';
import { deviceGroups, sites } from '../packages/server/src/db/schema/index';
import { createGroupMembership } from '../packages/server/src/modules/groups/membership.service';
import { createTenant } from '../packages/server/src/modules/tenants/tenants.service';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    groups: { type: 'string', default: '30' },
    runs: { type: 'string' },
  },
});
const N = Number(values.devices ?? (values.quick ? 10_000 : 100_000));
const GROUPS = Number(values.groups);
const RUNS = Number(values.runs ?? (values.quick ? 20 : 50));

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const { db } = database;
const { tenant } = await createTenant(db, {
  name: `Bench groups ${Date.now()}`,
  plan: 'Enterprise',
  maxAgents: null,
  licenseExpiry: null,
  adminEmail: `bench-groups-${Date.now()}@example.com`,
  adminName: 'Bench Admin',
});
const siteIds = (
  await db
    .insert(sites)
    .values(
      ['HQ', 'LON', 'NYC'].map((code) => ({ tenantId: tenant.id, siteName: `Site ${code}`, siteCode: code })),
    )
    .returning({ id: sites.id })
).map((s) => s.id);

let started = Date.now();
const CHUNK = 20_000;
for (let from = 1; from <= N; from += CHUNK) {
  const to = Math.min(N, from + CHUNK - 1);
  await db.execute(sql`
    insert into devices (tenant_id, site_id, device_guid, secret_hash, hostname, os_type, os_version, architecture,
                         status, last_seen, agent_version)
    select ${tenant.id}, (${sql.param(siteIds)}::int[])[1 + i % 3], gen_random_uuid(), 'bench',
           'PC-' || lpad(i::text, 6, '0'),
           case when i % 5 = 0 then 'macos' else 'windows' end,
           case when i % 5 = 0 then 'macOS 14.4 Sonoma' else 'Windows 11 Pro 23H2' end,
           case when i % 7 = 0 then 'arm64' else 'x64' end,
           (array['online', 'offline', 'loggedin', 'error'])[1 + i % 4],
           now() - (i % 10000) * interval '1 minute', '1.' || (i % 12) || '.0'
    from generate_series(${from}::int, ${to}::int) as i`);
  await db.execute(sql`
    insert into device_software (tenant_id, device_id, name, publisher, version)
    select d.tenant_id, d.id, t.name, 'Vendor', t.major || '.' || (d.id % 13) || '.' || (d.id % 101)
    from devices d
    cross join (values ('7-Zip', 23), ('Google Chrome', 126), ('Mozilla Firefox', 127), ('VLC media player', 3), ('Notepad++', 8))
      as t(name, major)
    where d.tenant_id = ${tenant.id} and d.hostname between ${`PC-${String(from).padStart(6, '0')}`} and ${`PC-${String(to).padStart(6, '0')}`}`);
}
await db.execute(sql`analyze devices`);
await db.execute(sql`analyze device_software`);
const seededMs = Date.now() - started;

const membership = createGroupMembership({ db });
const filters: [string, GroupFilter][] = [
  [
    'software version (7-Zip < 23.10)',
    {
      match: 'all',
      conditions: [
        {
          field: 'software',
          op: 'installed',
          name_match: 'contains',
          name: '7-zip',
          version_op: 'lt',
          version: '23.10',
        },
      ],
    },
  ],
  [
    'os and architecture',
    {
      match: 'all',
      conditions: [
        { field: 'os_type', op: 'is', value: 'windows' },
        { field: 'architecture', op: 'is', value: 'x64' },
      ],
    },
  ],
  [
    'agent version (< 1.10)',
    { match: 'all', conditions: [{ field: 'agent_version', op: 'lt', value: '1.10' }] },
  ],
];

async function newGroup(name: string, filter: GroupFilter) {
  const [row] = await db
    .insert(deviceGroups)
    .values({ tenantId: tenant.id, name, kind: 'dynamic', filter })
    .returning({ id: deviceGroups.id });
  return { id: row!.id, tenantId: tenant.id, siteId: null, filter };
}

const rows: string[] = [];
for (const [label, filter] of filters) {
  const group = await newGroup(label, filter);
  started = performance.now();
  await db.transaction((tx) => membership.materialise(tx, group));
  const ms = performance.now() - started;
  const [count] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from device_group_members where group_id = ${group.id}`),
  );
  rows.push(`| materialise a new group: ${label} | ${ms.toFixed(0)} ms | ${count?.n ?? 0} members |`);
}

// tens of dynamic groups in the tenant, then one device's change re-evaluated against all of them
for (let i = filters.length; i < GROUPS; i++) {
  const [, filter] = filters[i % filters.length]!;
  await db.insert(deviceGroups).values({ tenantId: tenant.id, name: `Extra ${i}`, kind: 'dynamic', filter });
}
const [one] = rowsOf<{ id: number }>(
  await db.execute(
    sql`select id from devices where tenant_id = ${tenant.id} order by id limit 1 offset ${Math.floor(N / 2)}`,
  ),
);
const wall: number[] = [];
const cpu: number[] = [];
for (let r = 0; r < RUNS + 3; r++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await membership.devicesChanged(tenant.id, [one!.id]);
  const c = process.cpuUsage(c0);
  if (r >= 3) {
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
rows.push(
  `| one device changed, ${GROUPS} dynamic groups (median of ${RUNS}) | ${median(wall).toFixed(2)} ms wall | ${median(cpu).toFixed(2)} ms process CPU${process.env.DATABASE_URL ? '' : ' (PGlite: includes the database)'} |`,
);

console.log(
  `\n### groups: ${N.toLocaleString('en-US')} devices, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} (seeded in ${(seededMs / 1000).toFixed(1)} s)\n`,
);
console.log('| what | time | notes |\n| --- | --- | --- |');
console.log(rows.join('\n'));
await database.close();
