// Benchmark "fleet": N live agents on one server instance.
//
//   npm run bench -- fleet            # 10,000 agents
//   npm run bench -- fleet --quick    # 1,000 agents, shorter windows
//   options: --devices N --postgres URL --runtime tsx|compiled --sockets 100 --changes N
//            --cpu-window S --keep (keep the database)
//            --workers W (the server as W worker processes, WEB_WORKERS, with Redis: --redis URL)
//            --sim-processes K (simulator processes, each on its own loopback source address;
//            default one per 12,500 agents) --name fleet (bench/results/<name>.json)
//            --upgrades-per-second R (AGENT_UPGRADES_PER_SECOND: with Redis one budget for all
//            workers; default the server's 250, which returns 50,000 agents in no less than 200 s)
//            --enroll-concurrency C (enrolments in flight per simulator process; its default 8)
//            --tokens T (enrolment tokens, default 1 up to 10,000 agents, else 16: enrolments with one
//            token take turns on its row, which a loaded machine makes the limit of the whole run)
//            --no-software (machines without software: their first inventories skip the fleet's
//            shared software counts, the limit of a fresh fleet's arrival on a loaded machine)
//   npm run bench -- fleet --devices 50000 --workers 4 --name fleet-50k   # issue 32, item 1
//
// The server (LOG_LEVEL=warn) runs on a throwaway PostgreSQL database in its own process, the
// simulator (packages/agent/src/sim) in another, connecting its agents through the normal
// enrolment (POST /api/agent/enroll) and socket (WS /api/agent/ws) path; 100 portal sockets run in
// a third (bench/fleet-portal.ts). Measured:
//  1. the time for all N to enrol and to come online (the devices table, polled every 200 ms);
//  2. the server's RSS growth per connected agent (VmRSS before the simulator and once all are
//     online and settled);
//  3. the server's CPU at steady heartbeat (utime + stime over the window, agents heartbeating at
//     the default 30 s);
//  4. status change to browser: an agent connection held by this process reports a fault and
//     clears it (status error ↔ online), each change at a known wall-clock time; the portal
//     sockets, subscribed to that device, timestamp each device_update (same machine, same clock);
//  5. kill -9 of the server, a restart, and the time until every agent is connected again (the
//     simulator's record of its welcomes), with the peak ÷ mean connections per 100 ms bucket.
// Writes bench/results/fleet.json.
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { AGENT_DEVICE_HEADER, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import {
  api,
  defaultPostgres,
  deviceCounts,
  sleep,
  startFleetServer,
  startServer,
  until,
  wallMs,
} from './fleet-setup';
import { startSims, treeCpuSeconds, treeRssKb } from './fleet-scale';
import { machine, percentile, repoRoot, startChild, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    postgres: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    sockets: { type: 'string', default: '100' },
    changes: { type: 'string' },
    'cpu-window': { type: 'string' },
    keep: { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'sim-processes': { type: 'string' },
    name: { type: 'string', default: 'fleet' },
    'upgrades-per-second': { type: 'string' },
    'enroll-concurrency': { type: 'string' },
    tokens: { type: 'string' },
    'no-software': { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const N = Number(values.devices ?? (quick ? 1000 : 10_000));
const SOCKETS = Number(values.sockets);
const CHANGES = Number(values.changes ?? (quick ? 20 : 50));
const CPU_WINDOW_S = Number(values['cpu-window'] ?? (quick ? 15 : 30));
const SETTLE_MS = quick ? 5000 : 10_000;
const WORKERS = Number(values.workers);
const SIMS = Number(values['sim-processes'] ?? Math.ceil(N / 12_500));
const loadBefore = (await import('node:os')).loadavg().map((x) => Number(x.toFixed(2)));
const log = (line: string) => console.error(`[fleet] ${line}`);
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

const UPGRADES = values['upgrades-per-second'];
const setup = await startFleetServer({
  runtime: values.runtime,
  postgres: values.postgres ?? defaultPostgres(),
  env: {
    // worker mode: the workers' live updates and presence go through Redis, on this run's own channels
    ...(WORKERS > 1 && {
      WEB_WORKERS: String(WORKERS),
      REDIS_URL: values.redis,
      REDIS_CHANNEL_PREFIX: `bench-fleet-${process.pid}:`,
    }),
    ...(UPGRADES !== undefined && { AGENT_UPGRADES_PER_SECOND: UPGRADES }),
  },
});
let server = setup.server;
let sim: Awaited<ReturnType<typeof startSims>> | null = null;
try {
  log(
    `server (${values.runtime}, ${WORKERS} worker${WORKERS > 1 ? 's' : ''}) at ${setup.base}, ${N.toLocaleString('en')} agents in ${SIMS} simulator processes, load ${loadBefore.join(' ')}`,
  );
  await sleep(3000);
  const rssBeforeKb = treeRssKb(server.process.pid!);

  // ---- 1. enrol and come online
  const t0 = wallMs();
  const TOKENS = Number(values.tokens ?? (N > 10_000 ? 16 : 1));
  const tokens = [setup.enrollToken];
  while (tokens.length < TOKENS) {
    const { token } = await api<{ token: string }>(
      setup.base,
      'POST',
      '/api/customer/agents/enrollment-tokens',
      setup.session.token,
      {},
    );
    tokens.push(token);
  }
  sim = await startSims({
    server: setup.base,
    token: tokens,
    devices: N,
    processes: SIMS,
    noSoftware: values['no-software'],
    ...(values['enroll-concurrency'] && { enrollConcurrency: Number(values['enroll-concurrency']) }),
  });
  let enrolledMs: number | null = null;
  let lastLog = 0;
  const onlineMs = await until(
    async () => {
      const c = await deviceCounts(setup.db, setup.session.tenantId);
      if (enrolledMs === null && c.total >= N) {
        enrolledMs = wallMs() - t0;
      }
      if (Date.now() - lastLog > 5000) {
        lastLog = Date.now();
        log(`enrolled ${c.total}, online ${c.online}`);
      }
      return c.online >= N ? wallMs() - t0 : null;
    },
    quick ? 600_000 : 1_800_000,
    200,
    'every agent online',
  );
  log(
    `all enrolled in ${(enrolledMs! / 1000).toFixed(1)} s, all online in ${(onlineMs / 1000).toFixed(1)} s`,
  );

  // ---- 2. memory per agent
  await sleep(SETTLE_MS);
  const rssAfterKb = treeRssKb(server.process.pid!);
  const perAgentKb = (rssAfterKb - rssBeforeKb) / N;
  log(
    `server RSS ${Math.round(rssBeforeKb / 1024)} → ${Math.round(rssAfterKb / 1024)} MB: ${perAgentKb.toFixed(1)} KB per agent`,
  );

  // ---- 3. CPU at steady heartbeat
  const simCpu = () => sim!.pids().reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
  const cpu0 = treeCpuSeconds(server.process.pid!);
  const simCpu0 = simCpu();
  await sleep(CPU_WINDOW_S * 1000);
  const serverCpuPercent = ((treeCpuSeconds(server.process.pid!) - cpu0) / CPU_WINDOW_S) * 100;
  const simCpuPercent = ((simCpu() - simCpu0) / CPU_WINDOW_S) * 100;
  log(
    `CPU over ${CPU_WINDOW_S} s: server ${serverCpuPercent.toFixed(1)} % of a core, simulator ${simCpuPercent.toFixed(1)} %`,
  );

  // ---- 4. status change → portal socket
  const probe = await api<{ device_guid: string; agent_secret: string }>(
    setup.base,
    'POST',
    '/api/agent/enroll',
    null,
    {
      token: setup.enrollToken,
      facts: { hostname: 'BENCH-PROBE', osType: 'linux', osVersion: 'Bench', agentVersion: '1.0.0' },
    },
  );
  const agentWs = new WebSocket(`${setup.base.replace(/^http/, 'ws')}/api/agent/ws`, {
    headers: { [AGENT_DEVICE_HEADER]: probe.device_guid, authorization: `Bearer ${probe.agent_secret}` },
  });
  await new Promise<void>((resolve, reject) => {
    agentWs.once('error', reject);
    agentWs.once('unexpected-response', (_q, res) => reject(new Error(`probe refused: ${res.statusCode}`)));
    agentWs.once('open', () => {
      agentWs.send(
        JSON.stringify({
          type: 'hello',
          protocolVersion: AGENT_PROTOCOL_VERSION,
          agentVersion: '1.0.0',
          hostname: 'BENCH-PROBE',
          osType: 'linux',
          osVersion: 'Bench',
          sessions: [],
        }),
      );
    });
    agentWs.on('message', (d: Buffer) => {
      if ((JSON.parse(d.toString('utf8')) as { type: string }).type === 'welcome') {
        resolve();
      }
    });
  });
  const portal = await startChild(
    ['--import', 'tsx', `${repoRoot}/bench/fleet-portal.ts`],
    {
      BASE: setup.base,
      TENANT_ID: String(setup.session.tenantId),
      USER_ID: String(setup.session.userId),
      TOKEN: setup.session.token,
      DEVICE_GUID: probe.device_guid,
      SOCKETS: String(SOCKETS),
    },
    /portal sockets ready/,
  );
  let portalOut = '';
  portal.process.stdout?.on('data', (d: Buffer) => (portalOut += String(d)));
  const sentAt: { status: string; at: number }[] = [];
  for (let k = 0; k < CHANGES; k++) {
    const active = k % 2 === 0;
    sentAt.push({ status: active ? 'error' : 'online', at: wallMs() });
    agentWs.send(JSON.stringify({ type: 'fault', active, ...(active && { message: 'bench fault' }) }));
    await sleep(250 + Math.random() * 100);
  }
  await sleep(1500);
  await portal.stop();
  agentWs.terminate();
  const receipts = new Map<number, { status: string; at: number }[]>();
  for (const line of portalOut.split('\n')) {
    const [tag, socket, status, at] = line.split(' ');
    if (tag === 'U') {
      const list = receipts.get(Number(socket)) ?? [];
      list.push({ status: status!, at: Number(at) });
      receipts.set(Number(socket), list);
    }
  }
  const latencies: number[] = [];
  for (const list of receipts.values()) {
    let k = 0;
    for (const r of list) {
      while (k < sentAt.length && sentAt[k]!.status !== r.status) {
        k++;
      }
      if (k < sentAt.length) {
        latencies.push(r.at - sentAt[k]!.at);
        k++;
      }
    }
  }
  const missing = SOCKETS * CHANGES - latencies.length;
  const statusLatency = {
    sockets: SOCKETS,
    changes: CHANGES,
    samples: latencies.length,
    missing,
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(Math.max(...latencies)),
  };
  log(
    `status → browser: p50 ${statusLatency.p50_ms} ms, p99 ${statusLatency.p99_ms} ms (${latencies.length} samples, ${missing} missing)`,
  );

  // ---- 5. kill -9 and restart
  const tKill = wallMs();
  const dead = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await dead;
  server = await startServer(values.runtime, setup.env);
  const tReady = wallMs();
  log(`server restarted, ready ${((tReady - tKill) / 1000).toFixed(1)} s after the kill`);
  const back = await until(
    () => {
      const times = sim!.connections().filter((t) => t > tKill);
      return Promise.resolve(times.length >= N ? times.sort((a, b) => a - b) : null);
    },
    quick ? 300_000 : 900_000,
    500,
    'every agent back',
  ).catch((err: unknown) => {
    log(String(err));
    return sim!
      .connections()
      .filter((t) => t > tKill)
      .sort((a, b) => a - b);
  });
  const first = back[0] ?? tReady;
  const last = back.at(-1) ?? tReady;
  const buckets = new Array<number>(
    Math.max(1, Math.ceil((last - first) / 100) + (last === first ? 1 : 0)),
  ).fill(0);
  for (const t of back) {
    buckets[Math.min(buckets.length - 1, Math.floor((t - first) / 100))]! += 1;
  }
  const mean = back.length / buckets.length;
  const restart = {
    agents_back: back.length,
    server_ready_s: round((tReady - tKill) / 1000),
    all_back_after_kill_s: round((last - tKill) / 1000),
    all_back_after_ready_s: round((last - tReady) / 1000),
    first_back_after_ready_s: round((first - tReady) / 1000),
    peak_per_100ms: Math.max(...buckets),
    mean_per_100ms: round(mean, 2),
    peak_to_mean: round(Math.max(...buckets) / mean, 2),
  };
  const online = await deviceCounts(setup.db, setup.session.tenantId);
  log(
    `restart: ${back.length}/${N} back ${restart.all_back_after_kill_s} s after the kill (${restart.all_back_after_ready_s} s after ready), peak ÷ mean per 100 ms ${restart.peak_to_mean}; online in the database ${online.online}`,
  );

  const result = {
    quick,
    agents: N,
    runtime: values.runtime,
    server_workers: WORKERS,
    agent_upgrades_per_second: Number(UPGRADES ?? 250),
    sim_processes: SIMS,
    no_software: values['no-software'],
    load_average_before: loadBefore,
    enrol_all_s: round(enrolledMs! / 1000),
    online_all_s: round(onlineMs / 1000),
    enrol_per_s: round(N / (enrolledMs! / 1000)),
    server_rss_before_mb: round(rssBeforeKb / 1024),
    server_rss_after_mb: round(rssAfterKb / 1024),
    rss_per_agent_kb: round(perAgentKb, 2),
    cpu_window_s: CPU_WINDOW_S,
    server_cpu_percent: round(serverCpuPercent),
    sim_cpu_percent: round(simCpuPercent),
    status_to_browser: statusLatency,
    restart,
    machine: machine(),
  };
  const file = writeResult(values.name, result);
  console.log(
    `\nfleet${quick ? ' --quick' : ''}: ${N.toLocaleString('en')} agents (${SIMS} simulator processes), PostgreSQL, server via ${values.runtime} (${WORKERS} worker${WORKERS > 1 ? 's' : ''}), Node ${process.version}, load average ${loadBefore.join(' ')} before, ${result.machine.load_average.join(' ')} after\n`,
  );
  console.log('| measure | value | target |');
  console.log('|---|---:|---|');
  console.log(`| all enrolled | ${result.enrol_all_s} s (${result.enrol_per_s}/s) | |`);
  console.log(`| all online | ${result.online_all_s} s | |`);
  console.log(
    `| server RSS per connected agent | ${result.rss_per_agent_kb} KB (${result.server_rss_before_mb} → ${result.server_rss_after_mb} MB) | ≤ 10 KB; ≤ 3 KB at 50,000 |`,
  );
  console.log(
    `| server CPU at steady heartbeat | ${result.server_cpu_percent} % of a core (simulator ${result.sim_cpu_percent} %) | ≤ 30 % at 50,000 |`,
  );
  console.log(
    `| status → browser (${SOCKETS} sockets × ${CHANGES} changes) | p50 ${statusLatency.p50_ms} ms, p99 ${statusLatency.p99_ms} ms | p99 ≤ 100 ms |`,
  );
  console.log(
    `| after kill -9: all back | ${restart.all_back_after_kill_s} s (server ready at ${restart.server_ready_s} s) | ≤ 60 s; ≤ 90 s at 50,000 |`,
  );
  console.log(
    `| reconnections: peak ÷ mean per 100 ms | ${restart.peak_to_mean} (${restart.peak_per_100ms} vs ${restart.mean_per_100ms}) | ≤ 3 |`,
  );
  console.log(`\nwritten to ${file}`);
} catch (err) {
  console.error(err);
  if (sim) {
    console.error(sim.output().slice(-3000));
  }
  process.exitCode = 1;
} finally {
  await sim?.stop();
  await server.stop();
  await setup.cleanup(values.keep);
}
