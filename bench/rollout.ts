// Benchmark "rollout": a safe rollout (docs/product/rollouts.md) to N simulated Windows devices in
// three waves (5 %, 45 %, 50 %: with 10,000 devices the last wave is 5,000).
//
//   npm run bench -- rollout            # 10,000 devices (13,334 agents)
//   npm run bench -- rollout --quick    # 1,000 devices
//   options: --devices N --postgres URL --runtime tsx|compiled --keep
//
// The fleet benchmark's setup (bench/fleet-setup.ts): the server on a throwaway PostgreSQL, the
// simulator in its own process with no failures of its own and steps that take no time. The
// waves are three static groups (a rollout drawn from its wave groups may exceed a plain job's
// 1,000 devices), the default gate (90 % finished, 95 % succeeded, no soak). Two rollouts:
//  1. "pass": a step `exit 0`: every wave passes; measured, by the server's clocks, from the
//     second wave's gate pass (its passed_at) to the last wave's run commands sent to their
//     agents (device_commands.sent_at: committed, doorbell rung and offered);
//  2. "halt": a step `exit 1`: the first wave fails; measured from the failed result that
//     crosses the threshold (the first wave's (allowed + 1)-th failed row, its completed_at) to
//     the halt (the job's rollout_state_at), and the run_deployment commands of later waves
//     counted after the halt and three more seconds.
// Writes bench/results/rollout.json.
import { parseArgs } from 'node:util';
import { MAX_STATIC_MEMBERS_PER_CALL } from '@outpost/contract/groups';
import {
  api,
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
    postgres: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    keep: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const N = Number(values.devices ?? (quick ? 1000 : 10_000));
// About four in five simulated machines run Windows, which the benchmark's packages target: the
// fleet is a third larger than the rollout, whose devices are the first N Windows machines.
const AGENTS = Math.ceil(N / 0.75);
const log = (line: string) => console.error(`[rollout] ${line}`);
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

const setup = await startFleetServer({
  runtime: values.runtime,
  postgres: values.postgres ?? defaultPostgres(),
});
let sim: Awaited<ReturnType<typeof startSim>> | null = null;
try {
  const { db, base, session } = setup;
  const tenantId = session.tenantId;
  const call = <T>(method: string, url: string, body?: unknown) =>
    api<T>(base, method, url, session.token, body);
  log(`server (${values.runtime}) at ${base}, ${AGENTS.toLocaleString('en')} agents`);
  sim = await startSim({
    server: base,
    token: setup.enrollToken,
    devices: AGENTS,
    failureRate: 0,
    stepMs: '0',
  });
  await until(
    async () => ((await deviceCounts(db, tenantId)).online >= AGENTS ? true : null),
    quick ? 600_000 : 1_800_000,
    500,
    'every agent online',
  );
  await sleep(quick ? 3000 : 10_000); // the agents' first inventories settle

  async function pkg(name: string, command: string) {
    const p = await call<{ id: number }>('POST', '/api/customer/deployment-packages', { name });
    await call('POST', `/api/customer/deployment-packages/${p.id}/steps`, {
      step_name: 'Run',
      step_type: 'CMD',
      step_details: JSON.stringify({ command }),
    });
    return p.id;
  }
  const passPkg = await pkg('Bench rollout pass', 'exit 0');
  const failPkg = await pkg('Bench rollout halt', 'exit 1');
  // the packages target Windows: the server leaves the fleet's Macs out
  const ids = (
    await db.query<{ id: number }>(
      "select id from devices where tenant_id = $1 and os_type = 'windows' order by id limit $2",
      [tenantId, N],
    )
  ).rows.map((r) => r.id);
  if (ids.length < N) {
    throw new Error(`only ${ids.length} of the ${AGENTS} agents run Windows; the rollout needs ${N}`);
  }
  const cuts = [0, Math.round(ids.length * 0.05), Math.round(ids.length * 0.5), ids.length];
  const groups: number[] = [];
  for (let w = 0; w < 3; w++) {
    const g = await call<{ id: number }>('POST', '/api/customer/groups', {
      name: `Bench wave ${w + 1}`,
      kind: 'static',
    });
    const members = ids.slice(cuts[w], cuts[w + 1]);
    for (let i = 0; i < members.length; i += MAX_STATIC_MEMBERS_PER_CALL) {
      await call('POST', `/api/customer/groups/${g.id}/members`, {
        device_ids: members.slice(i, i + MAX_STATIC_MEMBERS_PER_CALL),
      });
    }
    groups.push(g.id);
  }
  const rollout = { mode: 'groups', waves: groups.map((group_id) => ({ group_id })) };
  const stateOf = async (jobId: number) =>
    (
      await db.query<{ rollout_state: string; status: string }>(
        'select rollout_state, status from deployment_jobs where id = $1',
        [jobId],
      )
    ).rows[0]!;

  // ---- 1. every wave passes
  const pass = await call<{ id: number }>('POST', '/api/customer/deployments', {
    package_id: passPkg,
    job_name: 'Bench rollout (pass)',
    rollout,
  });
  const t0 = wallMs();
  await until(
    async () => ((await stateOf(pass.id)).rollout_state === 'completed' ? true : null),
    quick ? 600_000 : 1_800_000,
    100,
    'the passing rollout completed',
  );
  log(`rollout completed ${((wallMs() - t0) / 1000).toFixed(1)} s after the POST`);
  const lastWave = await db.query<{ devices: string; passed: Date; sent: Date | null }>(
    `select count(d.id) as devices,
            (select passed_at from deployment_waves where job_id = $1 and wave_index = 1) as passed,
            max(c.sent_at) as sent
       from device_deployments d join device_commands c on c.id = d.command_id
      where d.job_id = $1 and d.wave_index = 2`,
    [pass.id],
  );
  const lw = lastWave.rows[0]!;
  const sentS = lw.sent ? (lw.sent.getTime() - lw.passed.getTime()) / 1000 : NaN;

  // ---- 2. the first wave fails: halt
  const halt = await call<{ id: number }>('POST', '/api/customer/deployments', {
    package_id: failPkg,
    job_name: 'Bench rollout (halt)',
    rollout,
  });
  await until(
    async () => ((await stateOf(halt.id)).rollout_state === 'halted' ? true : null),
    quick ? 300_000 : 900_000,
    100,
    'the failing rollout halted',
  );
  await sleep(3000);
  const first = await db.query<{ completed_at: Date }>(
    `select completed_at from device_deployments where job_id = $1 and wave_index = 0 and status = 'failed'
      order by completed_at`,
    [halt.id],
  );
  const wave0 = cuts[1]! - cuts[0]!;
  const allowed = Math.floor((wave0 * 5) / 100);
  const crossing = first.rows[allowed]?.completed_at;
  const haltAt = (
    await db.query<{ at: Date }>('select rollout_state_at as at from deployment_jobs where id = $1', [
      halt.id,
    ])
  ).rows[0]!.at;
  const haltS = crossing ? (haltAt.getTime() - crossing.getTime()) / 1000 : NaN;
  const later = await db.query<{ n: string }>(
    `select count(*) as n from device_commands c
      where c.kind = 'run_deployment' and (c.payload->>'jobId')::int = $1
        and (c.payload->>'deviceDeploymentId')::int in (select id from device_deployments where job_id = $1 and wave_index > 0)`,
    [halt.id],
  );
  const laterCommands = Number(later.rows[0]!.n);
  await call('POST', `/api/customer/deployments/${halt.id}/rollout/abort`);

  const result = {
    quick,
    agents: AGENTS,
    rollout_devices: ids.length,
    waves: [cuts[1]! - cuts[0]!, cuts[2]! - cuts[1]!, cuts[3]! - cuts[2]!],
    runtime: values.runtime,
    last_wave_devices: Number(lw.devices),
    gate_pass_to_last_wave_sent_s: round(sentS),
    crossing_result_to_halt_s: round(haltS, 3),
    later_wave_commands_after_halt: laterCommands,
    machine: machine(),
  };
  const file = writeResult('rollout', result);
  console.log(
    `\nrollout${quick ? ' --quick' : ''}: ${N.toLocaleString('en')} devices of ${AGENTS.toLocaleString('en')} agents in waves of ${result.waves.join(' / ')}, PostgreSQL, server via ${values.runtime}, Node ${process.version}, load average ${result.machine.load_average.join(' ')}\n`,
  );
  console.log('| measure | value | target |');
  console.log('|---|---:|---|');
  console.log(
    `| result crossing the threshold → halt (server clocks) | ${result.crossing_result_to_halt_s} s | ≤ 1 s |`,
  );
  console.log(`| run_deployment commands of later waves after the halt | ${laterCommands} | 0 |`);
  console.log(
    `| gate pass → ${result.last_wave_devices}-device wave sent to its agents | ${result.gate_pass_to_last_wave_sent_s} s | ≤ 5 s |`,
  );
  console.log(`\nwritten to ${file}`);
  if (laterCommands > 0 || !(haltS <= 1) || !(sentS <= 5)) {
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
