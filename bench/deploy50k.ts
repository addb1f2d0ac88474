// Benchmark "deploy50k": a deployment to 50,000 devices, of which as many as one server process
// can hold are live simulated agents and the rest are device rows whose agents are not connected.
//
//   npm run bench -- deploy50k                 # 50,000 devices, 15,000 of them live agents
//   npm run bench -- deploy50k --quick         # 5,000 devices, 1,000 live
//   options: --devices N --agents N --postgres URL --runtime tsx|compiled --keep
//
// Why not 50,000 live agents: this container allows 20,000 open files per process, so one server
// process cannot hold 50,000 sockets (docs/decisions/2026-11-27-deployments-at-fifty-thousand.md).
// A job holds at most MAX_DEVICES_PER_JOB (1,000) devices, so "a 50,000-device deployment" is 50
// jobs of 1,000 posted at once, as the deploy benchmark does for 10,000.
//
// Phase 1, dispatch and results: a three-step package (each step `exit 0`) to every device.
// Measured: every command row created (50,000) and every live agent's command sent (server
// clock), step results stored per second on the live agents (server timestamps) beside the
// server's CPU seconds, and each job's counters against its rows (the unconnected rows stay pending).
// Phase 2, cancel: a one-step package whose step sleeps ten minutes to every device (the live
// agents' rows running, the others pending), then the 50 jobs cancelled at once; measured: the
// time from the cancels' POSTs until no row of those jobs is pending or running (polled, and by
// the rows' completed_at). Writes bench/results/deploy50k.json.
import { parseArgs } from 'node:util';
import { MAX_DEVICES_PER_JOB } from '@outpost/contract/deployments';
import type pg from 'pg';
import { dbSnapshot, dbWork, DB_STATS_SETTLE_MS } from './db-work';
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
import { machine, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    agents: { type: 'string' },
    postgres: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    keep: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const TOTAL = Number(values.devices ?? (quick ? 5000 : 50_000));
const AGENTS = Number(values.agents ?? (quick ? 1000 : 15_000));
const STEPS = 3;
const log = (line: string) => console.error(`[deploy50k] ${line}`);
const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const secondsAfter = (at: Date | null, t0: number) => (at ? round((at.getTime() - t0) / 1000, 2) : null);

type Setup = Awaited<ReturnType<typeof startFleetServer>>;

/** A package of `steps` CMD steps running `command`. */
async function makePackage(setup: Setup, name: string, steps: number, command: string) {
  const { base, session } = setup;
  const pkg = await api<{ id: number }>(base, 'POST', '/api/customer/deployment-packages', session.token, {
    name,
  });
  for (let i = 1; i <= steps; i++) {
    await api(base, 'POST', `/api/customer/deployment-packages/${pkg.id}/steps`, session.token, {
      step_name: `Step ${i}`,
      step_type: 'CMD',
      step_details: JSON.stringify({ command }),
    });
  }
  return pkg.id;
}

/** Jobs of at most MAX_DEVICES_PER_JOB devices, posted at once; answers their ids and the last answer's time. */
async function postJobs(setup: Setup, packageId: number, ids: number[], label: string) {
  const t0 = wallMs();
  const posts: Promise<number>[] = [];
  for (let i = 0; i < ids.length; i += MAX_DEVICES_PER_JOB) {
    const device_ids = ids.slice(i, i + MAX_DEVICES_PER_JOB);
    posts.push(
      api<{ id: number }>(setup.base, 'POST', '/api/customer/deployments', setup.session.token, {
        package_id: packageId,
        device_ids,
        job_name: `${label} ${i / MAX_DEVICES_PER_JOB + 1}`,
      }).then((j) => j.id),
    );
  }
  const jobIds = await Promise.all(posts);
  return { jobIds, postedAt: t0, answeredS: round((wallMs() - t0) / 1000, 2) };
}

/** Counts of the jobs' rows: commands created and sent, step results, rows by status. */
async function jobCounts(db: pg.Client, jobIds: number[]) {
  const r = await db.query<{ created: string; sent: string; results: string; unfinished: string }>(
    `select
       (select count(*) from device_deployments d where d.job_id = any($1) and d.command_id is not null) as created,
       (select count(*) from device_deployments d join device_commands c on c.id = d.command_id
          where d.job_id = any($1) and c.sent_at is not null) as sent,
       (select count(*) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id
          where d.job_id = any($1) and l.status in ('completed', 'failed')) as results,
       (select count(*) from device_deployments d where d.job_id = any($1) and d.status in ('pending', 'running')) as unfinished`,
    [jobIds],
  );
  const row = r.rows[0]!;
  return {
    created: Number(row.created),
    sent: Number(row.sent),
    results: Number(row.results),
    unfinished: Number(row.unfinished),
  };
}

/** Each job's counters against its rows. */
async function countersOf(db: pg.Client, jobIds: number[]) {
  const r = await db.query<{
    total_devices: number;
    completed_devices: number;
    failed_devices: number;
    rows: string;
    completed_rows: string;
    failed_rows: string;
  }>(
    `select j.total_devices, j.completed_devices, j.failed_devices, count(d.id) as rows,
            count(d.id) filter (where d.status = 'completed') as completed_rows,
            count(d.id) filter (where d.status = 'failed') as failed_rows
       from deployment_jobs j left join device_deployments d on d.job_id = j.id
      where j.id = any($1) group by j.id`,
    [jobIds],
  );
  return {
    exact: r.rows.every(
      (x) =>
        x.total_devices === Number(x.rows) &&
        x.completed_devices === Number(x.completed_rows) &&
        x.failed_devices === Number(x.failed_rows),
    ),
    completed: r.rows.reduce((s, x) => s + x.completed_devices, 0),
    rows: r.rows.reduce((s, x) => s + Number(x.rows), 0),
  };
}

/** Phase 1: the three-step package to every device; dispatch, results of the live ones, counters. */
async function dispatchAndResults(setup: Setup, ids: number[], live: number, cpuAt: () => Cpu) {
  const { db } = setup;
  const pkg = await makePackage(setup, 'Bench three steps', STEPS, 'exit 0');
  const cpu0 = cpuAt();
  const db0 = await dbSnapshot(db);
  const { jobIds, postedAt, answeredS } = await postJobs(setup, pkg, ids, 'Bench');
  log(`${jobIds.length} jobs posted; the last answered after ${answeredS} s`);
  const expected = live * STEPS;
  await until(
    async () => {
      const c = await jobCounts(db, jobIds);
      // and every job dispatched, so the dispatch figure covers all of them
      return c.results >= expected && c.created >= ids.length ? c : null;
    },
    quick ? 600_000 : 1_800_000,
    250,
    'every live agent’s step results and every command row',
  );
  const cpu1 = cpuAt();
  await sleep(DB_STATS_SETTLE_MS);
  const db1 = await dbSnapshot(db);
  const st = (
    await db.query<{ last_created: Date; last_sent: Date; first_result: Date; last_result: Date }>(
      `select max(c.created_at) as last_created, max(c.sent_at) as last_sent,
              (select min(l.completed_at) from deployment_step_logs l join device_deployments d2 on d2.id = l.device_deployment_id where d2.job_id = any($1)) as first_result,
              (select max(l.completed_at) from deployment_step_logs l join device_deployments d2 on d2.id = l.device_deployment_id where d2.job_id = any($1)) as last_result
         from device_deployments d join device_commands c on c.id = d.command_id where d.job_id = any($1)`,
      [jobIds],
    )
  ).rows[0]!;
  const counts = await jobCounts(db, jobIds);
  const counters = await countersOf(db, jobIds);
  const resultSpanS = (st.last_result.getTime() - st.first_result.getTime()) / 1000;
  return {
    jobs: jobIds.length,
    posts_answered_s: answeredS,
    commands_created: counts.created,
    all_created_server_s: secondsAfter(st.last_created, postedAt),
    commands_sent: counts.sent,
    all_live_sent_server_s: secondsAfter(st.last_sent, postedAt),
    step_results: counts.results,
    step_results_per_s_server: round(counts.results / Math.max(0.001, resultSpanS)),
    results_window_end_s: secondsAfter(st.last_result, postedAt),
    server_cpu_s: round(cpu1.server - cpu0.server, 2),
    sim_cpu_s: round(cpu1.sim - cpu0.sim, 2),
    step_results_per_server_cpu_s: round(counts.results / Math.max(0.01, cpu1.server - cpu0.server)),
    database_per_live_device: dbWork(db0, db1, live),
    counters_exact: counters.exact,
    completed_devices: counters.completed,
    pending_devices: counts.unfinished,
  };
}

/** Phase 2: a ten-minute step to every device, then every job cancelled at once. */
async function cancelAll(setup: Setup, ids: number[], live: number, cpuAt: () => Cpu) {
  const { db, base, session } = setup;
  const pkg = await makePackage(setup, 'Bench long step', 1, 'sleep 600');
  const { jobIds, postedAt } = await postJobs(setup, pkg, ids, 'Long');
  // the live agents' rows running (their first progress stored), the unconnected ones pending
  await until(
    async () => {
      const r = await db.query<{ running: string }>(
        `select count(*) as running from device_deployments where job_id = any($1) and status = 'running'`,
        [jobIds],
      );
      return Number(r.rows[0]!.running) >= live ? true : null;
    },
    quick ? 600_000 : 1_800_000,
    500,
    'every live agent running the long step',
  );
  const before = await jobCounts(db, jobIds);
  log(
    `long jobs: ${before.unfinished} unfinished rows (${((wallMs() - postedAt) / 1000).toFixed(1)} s); cancelling`,
  );
  const cpu0 = cpuAt();
  const cancelAt = wallMs();
  const answers = Promise.all(
    jobIds.map((id) => api(base, 'POST', `/api/customer/deployments/${id}/cancel`, session.token, {})),
  ).then(() => wallMs() - cancelAt);
  const endedMs = await until(
    async () => ((await jobCounts(db, jobIds)).unfinished === 0 ? wallMs() - cancelAt : null),
    600_000,
    100,
    'every row of the cancelled jobs ended',
  );
  const answeredMs = await answers;
  const cpu1 = cpuAt();
  const st = (
    await db.query<{ last_ended: Date }>(
      `select max(completed_at) as last_ended from device_deployments where job_id = any($1)`,
      [jobIds],
    )
  ).rows[0]!;
  const counters = await countersOf(db, jobIds);
  return {
    jobs: jobIds.length,
    unfinished_rows_before: before.unfinished,
    cancels_answered_s: round(answeredMs / 1000, 2),
    all_rows_ended_s: round(endedMs / 1000, 2),
    all_rows_ended_server_s: secondsAfter(st.last_ended, cancelAt),
    server_cpu_s: round(cpu1.server - cpu0.server, 2),
    counters_exact: counters.exact,
    rows: counters.rows,
  };
}

type Cpu = { server: number; sim: number };

const setup = await startFleetServer({
  runtime: values.runtime,
  postgres: values.postgres ?? defaultPostgres(),
});
let sim: Awaited<ReturnType<typeof startSim>> | null = null;
try {
  const { db, base } = setup;
  const tenantId = setup.session.tenantId;
  log(`server (${values.runtime}) at ${base}; ${TOTAL.toLocaleString('en')} devices, ${AGENTS} live agents`);
  const t0 = wallMs();
  sim = await startSim({
    server: base,
    token: setup.enrollToken,
    devices: AGENTS,
    failureRate: 0,
    stepMs: '0',
  });
  await until(
    async () => ((await deviceCounts(db, tenantId)).online >= AGENTS ? true : null),
    1_800_000,
    500,
    'every agent online',
  );
  log(`all ${AGENTS} online after ${((wallMs() - t0) / 1000).toFixed(1)} s`);
  await sleep(quick ? 3000 : 10_000); // the agents' first inventories settle
  // the package targets Windows: the live Windows agents, then Windows rows up to TOTAL whose
  // agents are not connected to this process; they are marked online (a job refuses offline
  // devices), so their commands are created and wait unsent, as for agents on another instance
  const liveIds = (
    await db.query<{ id: number }>(
      "select id from devices where tenant_id = $1 and os_type = 'windows' order by id",
      [tenantId],
    )
  ).rows.map((r) => r.id);
  await db.query(
    `insert into devices (tenant_id, device_guid, secret_hash, hostname, os_type, os_version, architecture, status)
     select $1, gen_random_uuid(), 'bench-offline', 'unconnected-' || g, 'windows', '10.0.19045', 'x64', 'online'
       from generate_series(1, $2) g`,
    [tenantId, TOTAL - liveIds.length],
  );
  const ids = (
    await db.query<{ id: number }>(
      "select id from devices where tenant_id = $1 and os_type = 'windows' order by id",
      [tenantId],
    )
  ).rows.map((r) => r.id);
  log(`${ids.length} Windows devices, ${liveIds.length} of them live agents`);
  const cpuAt = (): Cpu => ({
    server: cpuSeconds(setup.server.process.pid!),
    sim: cpuSeconds(sim!.process.pid!),
  });
  const load0 = machine().load_average;
  const dispatch = await dispatchAndResults(setup, ids, liveIds.length, cpuAt);
  log(JSON.stringify(dispatch));
  const cancel = await cancelAll(setup, ids, liveIds.length, cpuAt);
  log(JSON.stringify(cancel));
  const result = {
    quick,
    devices: ids.length,
    live_agents: liveIds.length,
    runtime: values.runtime,
    load_before: load0,
    dispatch,
    cancel,
    machine: machine(),
  };
  const file = writeResult('deploy50k', result);
  console.log(
    `\ndeploy50k${quick ? ' --quick' : ''}: ${ids.length.toLocaleString('en')} devices (${liveIds.length.toLocaleString('en')} live agents), ${dispatch.jobs} jobs, PostgreSQL, Node ${process.version}, load ${load0.join(' ')} → ${result.machine.load_average.join(' ')}\n`,
  );
  console.log('| measure | value | target |');
  console.log('|---|---:|---|');
  console.log(`| POSTs answered (${dispatch.jobs} jobs) | ${dispatch.posts_answered_s} s | |`);
  console.log(
    `| every command row created (${dispatch.commands_created}) | ${dispatch.all_created_server_s} s (server clock) | ≤ 5 s |`,
  );
  console.log(
    `| every live agent's command sent (${dispatch.commands_sent}) | ${dispatch.all_live_sent_server_s} s (server clock) | ≤ 5 s |`,
  );
  console.log(
    `| step results stored per second (live agents) | ${dispatch.step_results_per_s_server} (${dispatch.step_results} results; server CPU ${dispatch.server_cpu_s} s, ${dispatch.step_results_per_server_cpu_s} per CPU-second) | ≥ 10,000 |`,
  );
  console.log(
    `| counters equal the rows | ${dispatch.counters_exact ? 'yes' : 'NO'} (${dispatch.completed_devices} completed, ${dispatch.pending_devices} pending, agent not connected) | exact |`,
  );
  console.log(
    `| cancel of ${cancel.jobs} jobs, ${cancel.unfinished_rows_before} unfinished rows: every row ended | ${cancel.all_rows_ended_s} s polled, ${cancel.all_rows_ended_server_s} s by the rows (answers ${cancel.cancels_answered_s} s; server CPU ${cancel.server_cpu_s} s) | ≤ 2 s |`,
  );
  console.log(`| cancel counters equal the rows | ${cancel.counters_exact ? 'yes' : 'NO'} | exact |`);
  console.log(`\nwritten to ${file}`);
  if (!dispatch.counters_exact || !cancel.counters_exact) {
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
