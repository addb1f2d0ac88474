// Benchmark "scripts": one script run on N simulated agents (docs/product/scripts.md#runs).
//
//   npm run bench -- scripts            # 10,000 agents
//   npm run bench -- scripts --quick    # 500 agents
//   options: --devices N --postgres URL --runtime tsx|compiled --keep
//
// The fleet benchmark's setup (bench/fleet-setup.ts): the server on a throwaway PostgreSQL
// database, the simulator in its own process with no failures and runs that take no time. Once
// every agent is online, one run of a short PowerShell script is started on all of them (the
// development server's whole-script route, POST /api/customer/script-runs/dev, one job of kind
// `script`), and the database is polled every 100 ms for: every run_script command delivered
// (device_commands.sent_at), every device's result stored (its step log ended), the run finished.
// Targets: every command delivered within 5 s; results stored at ≥ 5,000 a second. Writes
// bench/results/scripts.json.
import { parseArgs } from 'node:util';
import {
  api,
  cpuSeconds,
  defaultPostgres,
  deviceCounts,
  sleep,
  startFleetServer,
  startSim,
  until,
  wallMs,
} from './fleet-setup';
import { dbSnapshot, dbWork, DB_STATS_SETTLE_MS } from './db-work';
import { machine, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    postgres: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    keep: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const N = Number(values.devices ?? (quick ? 500 : 10_000));
const log = (line: string) => console.error(`[scripts] ${line}`);
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

const setup = await startFleetServer({
  runtime: values.runtime,
  postgres: values.postgres ?? defaultPostgres(),
});
let sim: Awaited<ReturnType<typeof startSim>> | null = null;
try {
  const { db, base, session } = setup;
  const tenantId = session.tenantId;
  log(`server (${values.runtime}) at ${base}, ${N.toLocaleString('en')} agents`);
  sim = await startSim({ server: base, token: setup.enrollToken, devices: N, failureRate: 0, stepMs: '0' });
  await until(
    async () => ((await deviceCounts(db, tenantId)).online >= N ? true : null),
    quick ? 600_000 : 1_800_000,
    500,
    'every agent online',
  );
  await sleep(quick ? 3000 : 10_000); // the agents' first inventories settle
  const ids = (
    await db.query<{ id: number }>('select id from devices where tenant_id = $1 order by id', [tenantId])
  ).rows.map((r) => r.id);

  const cpuAt = () => ({ server: cpuSeconds(setup.server.process.pid!), sim: cpuSeconds(sim!.process.pid!) });
  const cpu0 = cpuAt();
  const db0 = await dbSnapshot(db);
  const postedAt = wallMs();
  const run = await api<{ job_id: number; devices: number }>(
    base,
    'POST',
    '/api/customer/script-runs/dev',
    session.token,
    {
      name: 'Bench script',
      language: 'powershell',
      body: 'Write-Output "bench"\nexit 0',
      device_ids: ids,
    },
  );
  const answeredMs = wallMs() - postedAt;
  log(`run ${run.job_id} on ${run.devices} devices; the POST answered after ${answeredMs.toFixed(0)} ms`);

  const samples: { at: number; sent: number; results: number }[] = [];
  let deliveredMs: number | null = null;
  const completedMs = await until(
    async () => {
      const r = await db.query<{ sent: string; results: string; done: boolean }>(
        `select
           (select count(*) from device_commands where tenant_id = $1 and kind = 'run_script' and sent_at is not null) as sent,
           (select count(*) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id
              where d.job_id = $2 and l.status in ('completed', 'failed')) as results,
           (select status in ('completed', 'failed', 'cancelled') from deployment_jobs where id = $2) as done`,
        [tenantId, run.job_id],
      );
      const at = wallMs() - postedAt;
      const s = { at, sent: Number(r.rows[0]!.sent), results: Number(r.rows[0]!.results) };
      samples.push(s);
      if (deliveredMs === null && s.sent >= run.devices) {
        deliveredMs = at;
        log(`every run_script command delivered ${(at / 1000).toFixed(2)} s after the POST`);
      }
      return r.rows[0]!.done ? at : null;
    },
    quick ? 600_000 : 1_800_000,
    100,
    'the run finished',
  );
  const cpu1 = cpuAt();
  await sleep(DB_STATS_SETTLE_MS);
  const db1 = await dbSnapshot(db);
  const stamps = await db.query<{ last_sent: Date; first_result: Date; last_result: Date }>(
    `select
       (select max(sent_at) from device_commands where tenant_id = $1 and kind = 'run_script') as last_sent,
       (select min(l.completed_at) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id where d.job_id = $2) as first_result,
       (select max(l.completed_at) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id where d.job_id = $2) as last_result`,
    [tenantId, run.job_id],
  );
  const st = stamps.rows[0]!;
  const results = samples.at(-1)!.results;
  const firstResult = samples.find((s) => s.results > 0)?.at ?? 0;
  const lastResult = samples.find((s) => s.results >= results)?.at ?? completedMs;
  const counters = (
    await db.query<{
      total_devices: number;
      completed_devices: number;
      failed_devices: number;
      rows: string;
    }>(
      `select j.total_devices, j.completed_devices, j.failed_devices, count(d.id) as rows
         from deployment_jobs j left join device_deployments d on d.job_id = j.id where j.id = $1 group by j.id`,
      [run.job_id],
    )
  ).rows[0]!;
  const result = {
    quick,
    agents: N,
    devices: run.devices,
    runtime: values.runtime,
    post_answered_s: round(answeredMs / 1000, 2),
    all_dispatched_s: round((deliveredMs ?? NaN) / 1000, 2),
    all_dispatched_server_s: round((st.last_sent.getTime() - postedAt) / 1000, 2),
    run_complete_s: round(completedMs / 1000, 2),
    results,
    results_per_s: round((results * 1000) / Math.max(1, lastResult - firstResult + 100)),
    results_per_s_server: round(
      (results * 1000) / Math.max(1, st.last_result.getTime() - st.first_result.getTime()),
    ),
    completed_devices: counters.completed_devices,
    counters_exact:
      counters.total_devices === Number(counters.rows) &&
      counters.completed_devices + counters.failed_devices === Number(counters.rows),
    server_cpu_s: round(cpu1.server - cpu0.server, 2),
    sim_cpu_s: round(cpu1.sim - cpu0.sim, 2),
    // rows written per result, commits per result, PostgreSQL's CPU (db-work.ts; read after a pause)
    database: dbWork(db0, db1, results),
    machine: machine(),
  };
  const file = writeResult('scripts', result);
  console.log(
    `\nscripts${quick ? ' --quick' : ''}: one run on ${N.toLocaleString('en')} agents, PostgreSQL, Node ${process.version}\n`,
  );
  console.log('| measure | value | target |');
  console.log('|---|---:|---|');
  console.log(`| POST answered | ${result.post_answered_s} s | |`);
  console.log(
    `| every run_script command delivered | ${result.all_dispatched_s} s polled, ${result.all_dispatched_server_s} s by the server's clock | ≤ 5 s |`,
  );
  console.log(
    `| results stored per second | ${result.results_per_s} (${result.results_per_s_server} by the server's timestamps) | ≥ 5,000 |`,
  );
  console.log(`| run finished | ${result.run_complete_s} s | |`);
  console.log(`| CPU over the run | server ${result.server_cpu_s} s, simulator ${result.sim_cpu_s} s | |`);
  console.log(
    `| database per result | ${Object.entries(result.database.rows_per_unit)
      .map(([t, c]) => `${t} +${c.ins} ~${c.upd} (HOT ${c.hot}) -${c.del}`)
      .join(
        '; ',
      )}; ${result.database.commits_per_unit} commits; PostgreSQL CPU ${result.database.postgres_cpu_s} s | |`,
  );
  console.log(`| counters equal the device rows | ${result.counters_exact ? 'yes' : 'NO'} | exact |`);
  console.log(`\nwritten to ${file}`);
  if (!result.counters_exact) {
    process.exitCode = 1;
  }
} catch (err) {
  console.error(err);
  if (sim) {
    console.error(sim.output().slice(-3000));
  }
  process.exitCode = 1;
} finally {
  await sim?.stop();
  await setup.server.stop();
  await setup.cleanup(values.keep);
}
