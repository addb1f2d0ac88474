// Bulk seed for the api benchmark: one measured tenant with `devices` devices
// and `others` more tenants sharing the rest of `total`, loaded with multi-row INSERT … SELECT
// over generate_series (the rows are built inside PostgreSQL: no round trip per row).
//
// Per device: a hostname, an IP, a serial, an OS, a status (45 % online, 25 % logged in, 25 %
// offline, 5 % error), a site, hardware and network inventories (jsonb, the shape the agent
// reports), and software rows (12 titles per device in the measured tenant, 4 elsewhere). The
// measured tenant also has 30 days of activity rollups per device (SeedPlan.activityDays), the open activity state, and
// 200 deployment jobs of 100 device rows each, and the sets of bench/device-sets.ts (a tag on 1 % of
// its devices, one on 30 %, a static group of 10 %). Connected devices were heard from within the last
// 30 s, as in a live fleet (the benchmark server's presence grace keeps them so: no agent is
// connected, and sweeping 700,000 devices offline mid-run would measure the sweep, not the API).
import type pg from 'pg';

/** What the seed needs of a connection: pg's client and PGlite both have it. */
export type Sql = { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

export type SeedPlan = {
  devices: number;
  total: number;
  others: number;
  /** software rows per device of the measured tenant (12 unless given) */
  software?: number;
  /** days of activity rollups per device of the measured tenant (30 unless given) */
  activityDays?: number;
  /**
   * rows that only refer to the devices just written are inserted without their foreign keys'
   * checks (session_replication_role = replica: those tables have no trigger of their own; a
   * superuser's session, as seed() on PostgreSQL)
   */
  bulk?: boolean;
};

/** `work` with the foreign-key checks off when the plan is bulk (SeedPlan.bulk). */
async function unchecked(
  client: Sql,
  bulk: boolean | undefined,
  work: () => Promise<unknown>,
): Promise<void> {
  if (bulk) {
    await client.query(`set session_replication_role = replica`);
  }
  try {
    await work();
  } finally {
    if (bulk) {
      await client.query(`set session_replication_role = origin`);
    }
  }
}
/** The measured tenant's device sets (seedSets): a 1 % tag, a 30 % tag and a static group of 10 %. */
export type SeededSets = { rareTagId: number; commonTagId: number; groupId: number };
export type Seeded = {
  tenantId: number;
  userId: number;
  email: string;
  siteIds: number[];
  seconds: number;
} & SeededSets;

const CHUNK = 50_000;

const hardware = `jsonb_build_object(
  'systemInfo', jsonb_build_object('manufacturer', case when i % 5 = 0 then 'Apple' else 'Dell Inc.' end,
                                   'model', case when i % 5 = 0 then 'MacBookPro18,3' else 'Latitude 7440' end),
  'cpu', jsonb_build_object('name', '13th Gen Intel(R) Core(TM) i7-1365U'),
  'memoryModules', jsonb_build_array(jsonb_build_object('capacity', 8), jsonb_build_object('capacity', 8)),
  'storageDevices', jsonb_build_array(jsonb_build_object('deviceId', 'C:', 'mediaType', 'SSD',
                                      'totalSize', 512110190592, 'freeSpace', 100000000000 + (i % 1000)::bigint * 100000000)))`;
const network = `jsonb_build_object(
  'externalIp', '203.0.113.' || (i % 250),
  'dnsServers', jsonb_build_array('10.0.0.53', '1.1.1.1'),
  'interfaces', jsonb_build_array(jsonb_build_object('name', 'Ethernet', 'description', 'Intel(R) Ethernet Connection',
    'type', 'Ethernet', 'speed', 1000, 'status', 'Up',
    'macAddress', '00:1A:2B:' || lpad(to_hex((i / 65536) % 256), 2, '0') || ':' || lpad(to_hex((i / 256) % 256), 2, '0') || ':' || lpad(to_hex(i % 256), 2, '0'),
    'ipv4', jsonb_build_array(jsonb_build_object('address', '10.' || ((i / 65536) % 256) || '.' || ((i / 256) % 256) || '.' || (i % 256), 'subnetMask', '255.255.0.0')))))`;

async function seedTenant(
  client: Sql,
  index: number,
  devices: number,
  software: number,
  siteCount: number,
  bulk?: boolean,
): Promise<{ tenantId: number; userId: number; email: string; siteIds: number[] }> {
  const tenant = await client.query(
    `insert into tenants (tenant_name, plan) values ($1, 'Enterprise') returning id`,
    [`Bench tenant ${index}`],
  );
  const tenantId = (tenant.rows[0] as { id: number }).id;
  const user = await client.query(
    `insert into users (tenant_id, email, name, role) values ($1, $2, 'Bench Admin', 'tenant_admin') returning id`,
    [tenantId, `admin${index}@bench.example.com`],
  );
  const sites = await client.query(
    `insert into sites (tenant_id, site_name, site_code)
     select $1, 'Site ' || s, 'S' || lpad(s::text, 3, '0') from generate_series(1, $2::int) s returning id`,
    [tenantId, siteCount],
  );
  const siteIds = (sites.rows as { id: number }[]).map((r) => r.id);
  // the ids before this tenant's devices (its rows are read by primary key: the seed drops the tenant indexes)
  const last = await client.query(`select coalesce(max(id), 0)::int as id from devices`);
  const idsAfter = (last.rows[0] as { id: number }).id;
  for (let from = 1; from <= devices; from += CHUNK) {
    const to = Math.min(devices, from + CHUNK - 1);
    await client.query(
      `insert into devices (tenant_id, site_id, device_guid, secret_hash, hostname, ip_address, os_type, os_version,
                            status, last_seen, serial_number, agent_version, manufacturer, model, machine_id,
                            hardware_info, network_info, last_inventory_update, software_updated_at, created_at, updated_at)
       select $1, ($2::int[])[1 + i % $3], gen_random_uuid(), 'bench', 'PC-' || lpad(i::text, 6, '0'),
              '10.' || ((i / 65536) % 256) || '.' || ((i / 256) % 256) || '.' || (i % 256),
              case when i % 5 = 0 then 'macos' else 'windows' end,
              case when i % 5 = 0 then 'macOS 14.4 Sonoma' else 'Windows 11 Pro 23H2' end,
              case when i % 20 < 9 then 'online' when i % 20 < 14 then 'loggedin' when i % 20 < 19 then 'offline' else 'error' end,
              -- a connected device was heard from within its heartbeat; an offline one up to a week ago
              case when i % 20 < 19 and i % 20 >= 14 then now() - (i % 10000) * interval '1 minute'
                   else now() - (i % 30) * interval '1 second' end,
              'SN' || lpad(i::text, 8, '0'), '1.4.2',
              case when i % 5 = 0 then 'Apple' else 'Dell Inc.' end,
              case when i % 5 = 0 then 'MacBookPro18,3' else 'Latitude 7440' end,
              md5($6 || '-' || i), ${hardware}, ${network}, now(), now(), now() - (i % 365) * interval '1 day', now()
       from generate_series($4::int, $5::int) as i`,
      [tenantId, siteIds, siteIds.length, from, to, String(tenantId)],
    );
  }
  if (software > 0) {
    await unchecked(client, bulk, () =>
      client.query(
        `insert into device_software (tenant_id, device_id, name, display_name, publisher, version, install_date,
                                    first_seen_at, last_seen_at)
       select d.tenant_id, d.id, 'app-' || ((d.id * 7 + k * 13) % 300), 'Application ' || ((d.id * 7 + k * 13) % 300),
              'Vendor ' || ((d.id * 7 + k * 13) % 40), '1.' || (d.id % 3) || '.0', '2026-01-15',
              now() - (d.id % 90) * interval '1 day', now()
       from devices d cross join generate_series(1, $2::int) k where d.id > $3 and d.tenant_id = $1`,
        [tenantId, software, idsAfter],
      ),
    );
  }
  return {
    tenantId,
    userId: (user.rows[0] as { id: number }).id,
    email: `admin${index}@bench.example.com`,
    siteIds,
  };
}

async function seedActivity(client: Sql, tenantId: number, days: number): Promise<void> {
  await client.query(
    `insert into device_activity_daily (device_id, day, tenant_id, online_ms, logged_in_ms, session_count)
     select d.id, (current_date - k)::date, d.tenant_id,
            ((d.id * 37 + k * 101) % 86400) * 1000, ((d.id * 53 + k * 17) % 28800) * 1000, (d.id + k) % 4
     from devices d cross join generate_series(0, $2::int - 1) k where d.tenant_id = $1`,
    [tenantId, days],
  );
  await client.query(
    `insert into device_activity_state (device_id, tenant_id, online_since, logged_in_since, last_event_at)
     select id, tenant_id,
            case when status in ('online', 'loggedin') then now() - (id % 600) * interval '1 minute' end,
            case when status = 'loggedin' then now() - (id % 300) * interval '1 minute' end, now()
     from devices where tenant_id = $1`,
    [tenantId],
  );
}

/** The sets of bench/device-sets.ts on the measured tenant: tags of 1 % and 30 %, a group of 10 %. */
async function seedSets(client: Sql, tenantId: number): Promise<SeededSets> {
  const id = async (text: string) =>
    ((await client.query(`${text} returning id`, [tenantId])).rows[0] as { id: number }).id;
  const rareTagId = await id(`insert into tags (tenant_id, name, color) values ($1, 'Rare', 'red')`);
  const commonTagId = await id(`insert into tags (tenant_id, name, color) values ($1, 'Common', 'blue')`);
  await client.query(
    `insert into device_tags (tenant_id, device_id, tag_id)
     select $1::int, id, $2::int from devices where tenant_id = $1 and id % 100 = 0
     union all select $1::int, id, $3::int from devices where tenant_id = $1 and id % 10 < 3`,
    [tenantId, rareTagId, commonTagId],
  );
  const groupId = await id(
    `insert into device_groups (tenant_id, name, kind) values ($1, 'Servers', 'static')`,
  );
  await client.query(
    `insert into device_group_members (group_id, device_id, tenant_id)
     select $2::int, id, $1::int from devices where tenant_id = $1 and id % 10 = 7`,
    [tenantId, groupId],
  );
  return { rareTagId, commonTagId, groupId };
}

/** What a database seeded earlier holds (api.ts --into on a database seeded before). */
export async function seededFacts(client: Sql): Promise<Omit<Seeded, 'seconds'> | null> {
  const one = async (text: string, params: unknown[] = []) =>
    (await client.query(text, params)).rows[0] as { id: number } | undefined;
  const tenant = await one(`select id from tenants where tenant_name = 'Bench tenant 0'`);
  if (!tenant) {
    return null;
  }
  const t = [tenant.id];
  const sites = await client.query(`select id from sites where tenant_id = $1 order by id`, t);
  return {
    tenantId: tenant.id,
    userId: (await one(`select id from users where tenant_id = $1 order by id limit 1`, t))!.id,
    email: 'admin0@bench.example.com',
    siteIds: (sites.rows as { id: number }[]).map((r) => r.id),
    rareTagId: (await one(`select id from tags where tenant_id = $1 and name = 'Rare'`, t))!.id,
    commonTagId: (await one(`select id from tags where tenant_id = $1 and name = 'Common'`, t))!.id,
    groupId: (await one(`select id from device_groups where tenant_id = $1 and name = 'Servers'`, t))!.id,
  };
}

async function seedDeployments(client: Sql, tenantId: number, userId: number): Promise<void> {
  await client.query(
    `insert into deployment_jobs (tenant_id, package_name, name, status, steps, dispatched_at, started_at, completed_at,
                                  total_devices, completed_devices, failed_devices, created_by, created_by_name, created_at)
     select $1, 'Package ' || (j % 20), 'Job ' || j, 'completed', '[]'::jsonb, now() - j * interval '1 hour',
            now() - j * interval '1 hour', now() - j * interval '1 hour' + interval '10 minutes', 100, 97, 3, $2, 'Bench Admin',
            now() - j * interval '1 hour'
     from generate_series(1, 200) j`,
    [tenantId, userId],
  );
  await client.query(
    `insert into device_deployments (job_id, tenant_id, device_id, site_id, device_guid, hostname, ip_address, status,
                                     started_at, completed_at)
     select j.id, j.tenant_id, d.id, d.site_id, d.device_guid, d.hostname, d.ip_address,
            case when d.n % 34 = 0 then 'failed' else 'completed' end, j.started_at, j.completed_at
     from deployment_jobs j
     cross join lateral (select id, site_id, device_guid, hostname, ip_address, row_number() over () as n
                         from devices where tenant_id = j.tenant_id and id > j.id * 37 order by id limit 100) d
     where j.tenant_id = $1`,
    [tenantId],
  );
}

/** The tables the seed fills by the million, whose secondary indexes are built after their rows. */
const BULK_TABLES = ['devices', 'device_software', 'device_activity_daily'];

/**
 * Drops the bulk tables' non-unique indexes (as the migrations made them) and returns their
 * definitions: one index build over a million rows costs a fraction of a million insertions into
 * it (a trigram GIN above all).
 */
async function dropBulkIndexes(client: Sql): Promise<string[]> {
  const { rows } = await client.query(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i where i.indrelid = any($1::regclass[]) and not i.indisunique and not i.indisprimary`,
    [BULK_TABLES],
  );
  const indexes = rows as { name: string; def: string }[];
  for (const { name } of indexes) {
    await client.query(`drop index ${name}`);
  }
  return indexes.map((x) => x.def);
}

/** Seeds the measured tenant first (so its ids are the lowest), then the others. */
export async function seed(pool: pg.Pool, plan: SeedPlan, log: (line: string) => void): Promise<Seeded> {
  const client = await pool.connect();
  try {
    await client.query('set synchronous_commit = off');
    await client.query(`set maintenance_work_mem = '512MB'`);
    const sqlClient: Sql = { query: (text, params) => client.query(text, params) };
    const indexes = await dropBulkIndexes(sqlClient);
    const seeded = await seedWith(sqlClient, { ...plan, bulk: true }, log, async () => {
      const started = performance.now();
      for (const def of indexes) {
        await client.query(def);
      }
      log(`seed: ${indexes.length} indexes built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });
    return seeded;
  } finally {
    client.release();
  }
}

export async function seedWith(
  client: Sql,
  plan: SeedPlan,
  log: (line: string) => void,
  /** before the final vacuum (seed: the indexes it dropped) */
  beforeVacuum: () => Promise<void> = () => Promise.resolve(),
): Promise<Seeded> {
  const started = performance.now();
  const main = await seedTenant(client, 0, plan.devices, plan.software ?? 12, 20, plan.bulk);
  log(`seed: measured tenant, ${plan.devices.toLocaleString('en')} devices`);
  await unchecked(client, plan.bulk, () => seedActivity(client, main.tenantId, plan.activityDays ?? 30));
  log('seed: activity');
  await seedDeployments(client, main.tenantId, main.userId);
  const sets = await seedSets(client, main.tenantId);
  const rest = plan.total - plan.devices;
  for (let t = 1; t <= plan.others; t++) {
    const n = Math.floor(rest / plan.others) + (t <= rest % plan.others ? 1 : 0);
    await seedTenant(client, t, n, 4, 3, plan.bulk);
    if (t % 10 === 0 || t === plan.others) {
      log(`seed: ${t} of ${plan.others} other tenants`);
    }
  }
  await beforeVacuum();
  await client.query('vacuum (analyze)');
  return { ...main, ...sets, seconds: (performance.now() - started) / 1000 };
}
