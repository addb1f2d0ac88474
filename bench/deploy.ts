// Benchmark "deploy": a three-step package deployed to N simulated agents.
//
//   npm run bench -- deploy            # 10,000 agents
//   npm run bench -- deploy --quick    # 1,000 agents
//   options: --devices N --postgres URL --runtime tsx|compiled --keep
//
// The same setup as the fleet benchmark (bench/fleet-setup.ts): the server on a throwaway
// PostgreSQL database, the simulator in its own process with no step failures
// (--failure-rate 0) and steps that take no time (--step-ms 0); each step is `exit 0` (the
// simulator's steering: an unconditional exit ends the step with that code). Once every agent is
// online, the jobs are created with POST /api/customer/deployments (at most MAX_DEVICES_PER_JOB
// devices per job, so 10,000 devices are 10 jobs posted at once), and the database is polled every
// 100 ms for: every run_deployment command delivered (device_commands.sent_at), every step result
// stored (deployment_step_logs), every job finished; at the end each job's counters are compared
// with its device rows. Also printed: step_progress messages per device (the rows' last seq), the
// server's and the simulator's CPU seconds over the deploy window (steadier than wall time on a
// shared machine), and per job when it was dispatched and its last command sent. Writes
// bench/results/deploy.json.
import { parseArgs } from 'node:util';
import { MAX_DEVICES_PER_JOB } from '@outpost/contract/deployments';
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
const N = Number(values.devices ?? (quick ? 1000 : 10_000));
const STEPS = 3;
const log = (line: string) => console.error(`[deploy] ${line}`);
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
  const t0 = wallMs();
  sim = await startSim({ server: base, token: setup.enrollToken, devices: N, failureRate: 0, stepMs: '0' });
  await until(
    async () => ((await deviceCounts(db, tenantId)).online >= N ? true : null),
    quick ? 600_000 : 1_800_000,
    500,
    'every agent online',
  );
  log(`all ${N} online after ${((wallMs() - t0) / 1000).toFixed(1)} s`);
  await sleep(quick ? 3000 : 10_000); // the agents' first inventories settle

  const pkg = await api<{ id: number }>(base, 'POST', '/api/customer/deployment-packages', session.token, {
    name: 'Bench three steps',
  });
  for (let i = 1; i <= STEPS; i++) {
    await api(base, 'POST', `/api/customer/deployment-packages/${pkg.id}/steps`, session.token, {
      step_name: `Step ${i}`,
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'exit 0' }),
    });
  }
  const ids = // the package targets Windows: the server refuses the fleet's Macs
    (
      await db.query<{ id: number }>(
        "select id from devices where tenant_id = $1 and os_type = 'windows' order by id",
        [tenantId],
      )
    ).rows.map((r) => r.id);
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += MAX_DEVICES_PER_JOB) {
    chunks.push(ids.slice(i, i + MAX_DEVICES_PER_JOB));
  }

  // ---- the jobs, posted at once
  // CPU seconds of the server and of the simulator over the deploy window: less noisy than wall
  // time on a shared machine
  const cpuAt = () => ({ server: cpuSeconds(setup.server.process.pid!), sim: cpuSeconds(sim!.process.pid!) });
  const cpu0 = cpuAt();
  const db0 = await dbSnapshot(db);
  const postedAt = wallMs();
  const posts = chunks.map(async (device_ids, i) => {
    const job = await api<{ id: number }>(base, 'POST', '/api/customer/deployments', session.token, {
      package_id: pkg.id,
      device_ids,
      job_name: `Bench ${i + 1}`,
    });
    return { id: job.id, answeredMs: wallMs() - postedAt };
  });
  const jobs = await Promise.all(posts);
  const jobIds = jobs.map((j) => j.id);
  const postsAnsweredMs = Math.max(...jobs.map((j) => j.answeredMs));
  log(`${jobs.length} jobs created; the last POST answered after ${postsAnsweredMs.toFixed(0)} ms`);

  const samples: { at: number; sent: number; results: number; done: number }[] = [];
  let deliveredMs: number | null = null;
  const completedMs = await until(
    async () => {
      const r = await db.query<{ sent: string; results: string; done: string }>(
        `select
           (select count(*) from device_commands where tenant_id = $1 and kind = 'run_deployment' and sent_at is not null) as sent,
           (select count(*) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id
              where d.job_id = any($2) and l.status in ('completed', 'failed')) as results,
           (select count(*) from deployment_jobs where id = any($2) and status in ('completed', 'failed', 'cancelled')) as done`,
        [tenantId, jobIds],
      );
      const at = wallMs() - postedAt;
      const s = {
        at,
        sent: Number(r.rows[0]!.sent),
        results: Number(r.rows[0]!.results),
        done: Number(r.rows[0]!.done),
      };
      samples.push(s);
      if (deliveredMs === null && s.sent >= ids.length) {
        deliveredMs = at;
        log(`every run command delivered ${(at / 1000).toFixed(2)} s after the POST`);
      }
      return s.done >= jobIds.length ? at : null;
    },
    quick ? 600_000 : 1_800_000,
    100,
    'every job finished',
  );
  const cpu1 = cpuAt();
  await sleep(DB_STATS_SETTLE_MS);
  const db1 = await dbSnapshot(db);
  // the server's own timestamps (same machine, same clock) beside the polled ones
  const stamps = await db.query<{ last_sent: Date; first_result: Date; last_result: Date; last_job: Date }>(
    `select
       (select max(sent_at) from device_commands where tenant_id = $1 and kind = 'run_deployment') as last_sent,
       (select min(l.completed_at) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id where d.job_id = any($2)) as first_result,
       (select max(l.completed_at) from deployment_step_logs l join device_deployments d on d.id = l.device_deployment_id where d.job_id = any($2)) as last_result,
       (select max(completed_at) from deployment_jobs where id = any($2)) as last_job`,
    [tenantId, jobIds],
  );
  const st = stamps.rows[0]!;
  // per job, by the server's clock: when the scheduler dispatched it, when its last command was sent
  const perJob = await db.query<{ dispatched_s: number; delivered_s: number }>(
    `select extract(epoch from j.dispatched_at)::float8 - $2::float8 / 1000 as dispatched_s,
            extract(epoch from max(c.sent_at))::float8 - $2::float8 / 1000 as delivered_s
       from deployment_jobs j
       join device_deployments d on d.job_id = j.id
       join device_commands c on c.id = d.command_id
      where j.id = any($1) group by j.id order by j.id`,
    [jobIds, postedAt],
  );
  // a device's last progress seq is the number of step_progress messages it sent
  const seqs = await db.query<{ per_device: string }>(
    `select avg(progress_seq)::float8 as per_device from device_deployments where job_id = any($1)`,
    [jobIds],
  );
  const progressPerDevice = Number(seqs.rows[0]!.per_device);
  const results = samples.at(-1)!.results;
  // step results stored per second: over the whole run, and the best second of the polls
  const firstResult = samples.find((s) => s.results > 0)?.at ?? 0;
  const lastResult = samples.find((s) => s.results >= results)?.at ?? completedMs;
  let peakPerSecond = 0;
  for (const s of samples) {
    const before = [...samples].reverse().find((x) => x.at <= s.at - 1000);
    if (before) {
      peakPerSecond = Math.max(peakPerSecond, ((s.results - before.results) * 1000) / (s.at - before.at));
    }
  }
  // counters against the rows
  const counters = await db.query<{
    id: number;
    total_devices: number;
    completed_devices: number;
    failed_devices: number;
    rows: string;
    completed_rows: string;
    failed_rows: string;
    status: string;
  }>(
    `select j.id, j.status, j.total_devices, j.completed_devices, j.failed_devices,
            count(d.id) as rows,
            count(d.id) filter (where d.status = 'completed') as completed_rows,
            count(d.id) filter (where d.status = 'failed') as failed_rows
       from deployment_jobs j left join device_deployments d on d.job_id = j.id
      where j.id = any($1) group by j.id order by j.id`,
    [jobIds],
  );
  const countersExact = counters.rows.every(
    (r) =>
      r.total_devices === Number(r.rows) &&
      r.completed_devices === Number(r.completed_rows) &&
      r.failed_devices === Number(r.failed_rows),
  );
  const completedDevices = counters.rows.reduce((s, r) => s + r.completed_devices, 0);
  const result = {
    quick,
    agents: N,
    windows_agents: ids.length,
    jobs: jobIds.length,
    steps: STEPS,
    runtime: values.runtime,
    posts_answered_s: round(postsAnsweredMs / 1000, 2),
    all_delivered_s: round((deliveredMs ?? NaN) / 1000, 2),
    all_delivered_server_s: round((st.last_sent.getTime() - postedAt) / 1000, 2),
    job_complete_s: round(completedMs / 1000, 2),
    job_complete_server_s: round((st.last_job.getTime() - postedAt) / 1000, 2),
    step_results: results,
    progress_messages_per_device: round(progressPerDevice, 2),
    per_job_dispatched_s: perJob.rows.map((r) => round(r.dispatched_s, 2)),
    per_job_delivered_s: perJob.rows.map((r) => round(r.delivered_s, 2)),
    server_cpu_s: round(cpu1.server - cpu0.server, 2),
    sim_cpu_s: round(cpu1.sim - cpu0.sim, 2),
    step_results_per_s: round((results * 1000) / Math.max(1, lastResult - firstResult + 100)),
    step_results_per_s_server: round(
      (results * 1000) / Math.max(1, st.last_result.getTime() - st.first_result.getTime()),
    ),
    step_results_peak_per_s: round(peakPerSecond),
    completed_devices: completedDevices,
    // rows written per device, commits per device, PostgreSQL's CPU (db-work.ts; read after a pause)
    database_per_device: dbWork(db0, db1, completedDevices),
    counters_exact: countersExact,
    counters: counters.rows.map((r) => ({
      job: r.id,
      status: r.status,
      total: r.total_devices,
      completed: r.completed_devices,
      failed: r.failed_devices,
      rows: Number(r.rows),
      completed_rows: Number(r.completed_rows),
      failed_rows: Number(r.failed_rows),
    })),
    machine: machine(),
  };
  const file = writeResult('deploy', result);
  console.log(
    `\ndeploy${quick ? ' --quick' : ''}: ${N.toLocaleString('en')} agents, ${result.jobs} job(s) of a ${STEPS}-step package, PostgreSQL, server via ${values.runtime}, Node ${process.version}, load average ${result.machine.load_average.join(' ')}\n`,
  );
  console.log('| measure | value | target |');
  console.log('|---|---:|---|');
  console.log(`| POSTs answered | ${result.posts_answered_s} s | |`);
  console.log(
    `| every run command delivered (sent_at) | ${result.all_delivered_s} s polled, ${result.all_delivered_server_s} s by the server's clock | ≤ 5 s |`,
  );
  console.log(
    `| per job: dispatched / last command sent (s after the POST) | ${result.per_job_dispatched_s.map((d, i) => `${d} / ${result.per_job_delivered_s[i]}`).join(', ')} | |`,
  );
  console.log(
    `| every job finished | ${result.job_complete_s} s polled, ${result.job_complete_server_s} s by the server's clock | |`,
  );
  console.log(
    `| step results stored per second | ${result.step_results_per_s} (${result.step_results_per_s_server} by the server's timestamps; best second ${result.step_results_peak_per_s}) | ≥ 5,000 |`,
  );
  console.log(
    `| step_progress messages per device (the last seq) | ${result.progress_messages_per_device} (plus one command_result) | |`,
  );
  console.log(
    `| CPU over the deploy window | server ${result.server_cpu_s} s, simulator ${result.sim_cpu_s} s | |`,
  );
  console.log(
    `| database per device | ${Object.entries(result.database_per_device.rows_per_unit)
      .map(([t, c]) => `${t} +${c.ins} ~${c.upd} (HOT ${c.hot}) -${c.del}`)
      .join(
        '; ',
      )}; ${result.database_per_device.commits_per_unit} commits; PostgreSQL CPU ${result.database_per_device.postgres_cpu_s} s | |`,
  );
  console.log(
    `| counters equal the device rows | ${countersExact ? 'yes' : 'NO'} (${completedDevices} completed of ${ids.length} Windows agents) | exact |`,
  );
  console.log(`\nwritten to ${file}`);
  if (!countersExact) {
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
