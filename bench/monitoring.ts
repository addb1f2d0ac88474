// Benchmark "monitoring": N simulated agents, each running 5 checks every 60 s and sending a
// metrics sample every minute, on one server instance (docs/product/monitoring.md).
//
//   npm run bench -- monitoring            # 10,000 agents
//   npm run bench -- monitoring --quick    # 1,000 agents, shorter windows
//   options: --devices N --postgres URL --runtime tsx|compiled --window S --changes N --keep
//
// The server runs on a throwaway PostgreSQL database in its own process, the simulator in another
// (packages/agent/src/sim, checks and metrics on its shared tick). A tenant-wide monitoring policy
// gives every device 5 checks (CPU, memory, disk, process, script) at 60 s. Measured:
//  1. the server's CPU in steady state (utime + stime over the window, once every agent runs its
//     checks and has sent a first sample), and the metric rows and bytes written per second;
//  2. alert latency: an agent connection held by this process reports its script check failing
//     and passing again, each at a known wall-clock time; a portal socket subscribed to `alerts`
//     timestamps each alert_update for that device (same machine, same clock): p50/p99.
// Writes bench/results/monitoring.json.
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import {
  AGENT_CAPABILITIES,
  AGENT_DEVICE_HEADER,
  AGENT_PROTOCOL_VERSION,
} from '@outpost/contract/agent-protocol';
import type { MonitoringPolicy } from '@outpost/contract/checks';
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
import { machine, percentile, writeResult } from './lib';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    devices: { type: 'string' },
    postgres: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    window: { type: 'string' },
    changes: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const N = Number(values.devices ?? (quick ? 1000 : 10_000));
const WINDOW_S = Number(values.window ?? (quick ? 60 : 120));
const CHANGES = Number(values.changes ?? (quick ? 20 : 40));
const log = (line: string) => console.error(`[monitoring] ${line}`);

const setup = await startFleetServer({
  runtime: values.runtime,
  postgres: values.postgres ?? defaultPostgres(),
});
const server = setup.server;
let sim: Awaited<ReturnType<typeof startSim>> | null = null;
try {
  const policy = await api<MonitoringPolicy>(
    setup.base,
    'POST',
    '/api/customer/monitoring-policies',
    setup.session.token,
    {
      name: 'Bench checks',
      target_type: 'tenant',
      checks: [
        { name: 'CPU', config: { type: 'cpu', percent: 95, minutes: 5 }, interval_seconds: 60 },
        { name: 'Memory', config: { type: 'memory', percent: 95 }, interval_seconds: 60 },
        { name: 'Disk', config: { type: 'disk', volume: '*', min_free_percent: 5 }, interval_seconds: 60 },
        {
          name: 'Agent process',
          config: { type: 'process', process: 'outpost-agent' },
          interval_seconds: 60,
        },
        {
          name: 'Health script',
          config: { type: 'script', shell: 'sh', script: 'exit 0' },
          interval_seconds: 60,
          severity: 'critical',
        },
      ],
    },
  );
  const scriptCheck = policy.checks.find((c) => c.config.type === 'script')!;
  log(
    `server at ${setup.base}, ${N.toLocaleString('en')} agents, policy ${policy.id} with ${policy.checks.length} checks`,
  );

  sim = await startSim({ server: setup.base, token: setup.enrollToken, devices: N });
  await until(
    async () => ((await deviceCounts(setup.db, setup.session.tenantId)).online >= N ? true : null),
    quick ? 600_000 : 1_800_000,
    500,
    'every agent online',
  );
  log('every agent online; waiting for every device to report its checks and a first sample');
  await until(
    async () => {
      const r = await setup.db.query<{ n: string }>(
        'select count(distinct device_id) as n from device_check_states',
      );
      return Number(r.rows[0]!.n) >= N ? true : null;
    },
    300_000,
    1000,
    'every device reporting its checks',
  );
  await sleep(70_000); // a whole minute of samples and check intervals before measuring

  // ---- 1. steady state
  const rows = async () =>
    Number(
      (await setup.db.query<{ n: string }>('select count(*) as n from device_metric_minutes')).rows[0]!.n,
    );
  const bytes = async () =>
    Number(
      (await setup.db.query<{ b: string }>(`select pg_total_relation_size('device_metric_minutes') as b`))
        .rows[0]!.b,
    );
  const [rows0, bytes0, cpu0] = [await rows(), await bytes(), cpuSeconds(server.process.pid!)];
  await sleep(WINDOW_S * 1000);
  const serverCpuPercent = ((cpuSeconds(server.process.pid!) - cpu0) / WINDOW_S) * 100;
  const rowsPerSecond = ((await rows()) - rows0) / WINDOW_S;
  const bytesPerSecond = ((await bytes()) - bytes0) / WINDOW_S;
  log(
    `steady state over ${WINDOW_S} s: server CPU ${serverCpuPercent.toFixed(1)} % of a core; metric rows ${rowsPerSecond.toFixed(0)}/s, ${(bytesPerSecond / 1024).toFixed(0)} KiB/s`,
  );

  // ---- 2. a failing check → the alert on a portal socket
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
  const agent = new WebSocket(`${setup.base.replace(/^http/, 'ws')}/api/agent/ws`, {
    headers: { [AGENT_DEVICE_HEADER]: probe.device_guid, authorization: `Bearer ${probe.agent_secret}` },
  });
  await new Promise<void>((resolve, reject) => {
    agent.once('error', reject);
    agent.once('open', () =>
      agent.send(
        JSON.stringify({
          type: 'hello',
          protocolVersion: AGENT_PROTOCOL_VERSION,
          capabilities: [AGENT_CAPABILITIES.checks],
          agentVersion: '1.0.0',
          hostname: 'BENCH-PROBE',
          osType: 'linux',
          osVersion: 'Bench',
          sessions: [],
        }),
      ),
    );
    agent.on('message', (d: Buffer) => {
      if ((JSON.parse(d.toString('utf8')) as { type: string }).type === 'checks') {
        resolve();
      }
    });
  });
  const q = new URLSearchParams({
    tenantId: String(setup.session.tenantId),
    userId: String(setup.session.userId),
    token: setup.session.token,
  });
  const portal = new WebSocket(`${setup.base.replace(/^http/, 'ws')}/api/ws?${q.toString()}`);
  const received: { at: number; state: string }[] = [];
  await new Promise<void>((resolve) => {
    portal.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString('utf8')) as {
        type: string;
        payload: { alert?: { device: { guid: string } | null; state: string } };
      };
      if (m.type === 'subscribed') {
        resolve();
      }
      if (m.type === 'alert_update' && m.payload.alert?.device?.guid === probe.device_guid) {
        received.push({ at: wallMs(), state: m.payload.alert.state });
      }
    });
    portal.once('open', () =>
      portal.send(JSON.stringify({ type: 'subscribe', payload: { subscriptionKey: 'alerts' } })),
    );
  });
  const sent: { at: number; state: string }[] = [];
  for (let k = 0; k < CHANGES; k++) {
    const failing = k % 2 === 0;
    sent.push({ at: wallMs(), state: failing ? 'open' : 'resolved' });
    agent.send(
      JSON.stringify({
        type: 'check_results',
        messageId: `bench-${k}`,
        results: [
          {
            checkId: scriptCheck.id,
            state: failing ? 'failing' : 'passing',
            output: 'bench',
            checkedAt: new Date().toISOString(),
          },
        ],
      }),
    );
    await sleep(600 + Math.random() * 200);
  }
  await sleep(2000);
  agent.terminate();
  portal.terminate();
  const latencies: number[] = [];
  let k = 0;
  for (const r of received) {
    while (k < sent.length && sent[k]!.state !== r.state) {
      k++;
    }
    if (k < sent.length) {
      latencies.push(r.at - sent[k]!.at);
      k++;
    }
  }
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  log(
    `alert to browser: ${latencies.length} of ${CHANGES} changes, p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`,
  );
  const file = writeResult('monitoring', {
    machine: machine(),
    devices: N,
    checksPerDevice: policy.checks.length,
    windowSeconds: WINDOW_S,
    serverCpuPercent,
    metricRowsPerSecond: rowsPerSecond,
    metricBytesPerSecond: bytesPerSecond,
    alertLatencyMs: { count: latencies.length, p50, p99 },
  });
  log(`wrote ${file}`);
} finally {
  await sim?.stop();
  await server.stop();
  await setup.cleanup(values.keep);
}
