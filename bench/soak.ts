// Soak (reliability): the server under a steady, mixed load for a long time, on PostgreSQL.
//
//   npm run bench -- soak            # 1,000 simulated agents, 10 minutes
//   npm run bench -- soak --quick    # 1,000 agents, 1 minute (same code path)
//   options: --agents N --minutes M (other sizes) --postgres URL (a server to create a throwaway
//            database on; default $BENCH_DATABASE_URL, $TEST_DATABASE_URL or
//            postgres://postgres@127.0.0.1:5432/postgres) --keep (keep the database)
//
// Three processes besides this one: the server (packages/server/src/main.ts through tsx, METRICS_TOKEN
// set, LOG_LEVEL info), the fleet simulator (`npm run sim`'s main.ts, every agent enrolled with one
// token and connected over its own socket), and this script, which drives the load:
//   - 20 portal sockets, subscribed to every deployment as it is created and to a few devices;
//   - a stream of deployments (a two-step CMD package to 5 connected devices every few seconds),
//     device actions (a restart of a device kept out of the deployments) and inventory refreshes;
//   - list queries one after the other (device list pages and searches, dashboard, deployments,
//     device activity).
// It samples the server's /metrics every 5 s (process_resident_memory_bytes,
// nodejs_heap_size_used_bytes, nodejs_eventloop_lag_p99_seconds: prom-client resets the event-loop
// histogram at each scrape, so each sample covers the 5 s before it), counts the server's log lines
// at level error or above (pino level ≥ 50), and at the end waits for every deployment to reach a
// final state. Prints a summary and writes bench/results/soak.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { openDatabase } from '../packages/server/src/db/client';
import { openToolSession } from '../packages/server/src/modules/auth/auth.service';
import { createSessionTokens } from '../packages/server/src/modules/auth/session-token';
import { createTenant } from '../packages/server/src/modules/tenants/tenants.service';
import { createThrowawayDatabase } from '../packages/server/test/harness';
import { freePort, machine, repoRoot, startChild, writeResult } from './lib';
import { apiClient, listDevices, sampleMetrics, watchServerLog } from './soak-parts';
import type { Sample } from './soak-parts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    agents: { type: 'string' },
    minutes: { type: 'string' },
    postgres: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const agents = Number(values.agents ?? 1000);
const minutes = Number(values.minutes ?? (quick ? 1 : 10));
const PORTAL_SOCKETS = 20;
const DEPLOY_EVERY_MS = quick ? 4_000 : 10_000;
const DEVICES_PER_DEPLOYMENT = 5;
const ACTION_EVERY_MS = 5_000;
const REFRESH_EVERY_MS = 3_000;
const SAMPLE_EVERY_MS = 5_000;
const DRAIN_MS = 180_000;
/** devices kept for restarts (a restarting device is away 20 s: deployments do not go there) */
const RESTART_POOL = 20;
const baseUrl =
  values.postgres ??
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const SESSION_SECRET = 'bench-session-secret-0123456789-abcdef';
const METRICS_TOKEN = 'bench-metrics-token-0123456789-abcdef-0123';
const log = (line: string) => console.error(`[soak] ${new Date().toISOString().slice(11, 19)} ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const throwaway = await createThrowawayDatabase(baseUrl);
log(`database ${new URL(throwaway.url).pathname.slice(1)}; ${agents} agents, ${minutes} min`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-soak-'));
const children: { stop(): Promise<void> }[] = [];
let exitCode = 0;
try {
  // ---- the tenant and an administrator's session, written before the server starts
  const database = await openDatabase({ databaseUrl: throwaway.url });
  const { tenant, admin } = await createTenant(database.db, {
    name: 'Soak Corp',
    plan: 'Enterprise',
    maxAgents: agents + 100,
    licenseExpiry: new Date(Date.now() + 365 * 24 * 3600 * 1000),
    adminEmail: 'admin@soak.example',
    adminName: 'Soak Admin',
  });
  const tokens = createSessionTokens(new TextEncoder().encode(SESSION_SECRET));
  const token = await openToolSession(database.db, tokens, admin.email);
  await database.close();
  const auth = { authorization: `Bearer ${token}` };

  // ---- the server, its log read line by line
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startChild(
    ['--import', 'tsx', path.join(repoRoot, 'packages/server/src/main.ts')],
    {
      DATABASE_URL: throwaway.url,
      SESSION_SECRET,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      OUTPOST_DEMO: '0',
      METRICS_TOKEN,
      // one address enrols the whole fleet at once: the per-address and per-token limits are
      // raised for the run (they guard against abuse, not load)
      ENROLL_PER_ADDRESS_PER_MINUTE: '100000',
      ENROLL_PER_TOKEN_PER_MINUTE: '100000',
    },
    /Outpost is ready at/,
  );
  children.push(server);
  const serverLog = watchServerLog(server);
  const errorLines = serverLog.errorLines;
  const { api, must } = apiClient(url, auth);

  // ---- the fleet
  const enrolment = await must<{ token: string }>('POST', '/api/customer/agents/enrollment-tokens', {});
  const enrolStarted = Date.now();
  const sim = await startChild(
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'packages/agent/src/sim/main.ts'),
      '--server',
      url,
      '--token',
      enrolment.token,
      '--devices',
      String(agents),
      '--failure-rate',
      '0',
      '--step-ms',
      '300-1500',
    ],
    {},
    /Simulating \d+ devices/,
    20 * 60_000,
  );
  children.push(sim);
  const online = async () =>
    (await must<{ deviceCounts: { online: number } }>('GET', '/api/customer/devices/stats/dashboard'))
      .deviceCounts.online;
  for (let n = await online(); n < agents; n = await online()) {
    if (Date.now() - enrolStarted > 20 * 60_000) {
      throw new Error(`only ${n} of ${agents} agents came online`);
    }
    await sleep(2_000);
  }
  const enrolSeconds = (Date.now() - enrolStarted) / 1000;
  log(`${agents} agents enrolled and online in ${enrolSeconds.toFixed(0)} s`);

  const deviceList = await listDevices(must, agents);
  const restartPool = deviceList.slice(0, RESTART_POOL);
  const deployPool = deviceList.slice(RESTART_POOL).filter((d) => d.os_type === 'windows'); // a Windows package: the server refuses Macs

  // a package of two CMD steps (the simulator runs them in 0.3–1.5 s each)
  const pkg = await must<{ id: number }>('POST', '/api/customer/deployment-packages', {
    name: 'Soak package',
  });
  for (const [i, name] of ['Install', 'Verify'].entries()) {
    await must('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
      step_name: name,
      step_type: 'CMD',
      step_details: JSON.stringify({ command: `echo soak step ${i + 1}` }),
      fail_deployment_on_error: true,
      retry_count: 0,
      timeout_seconds: 300,
    });
  }

  // ---- metrics
  const samples: Sample[] = [];
  const sample = async () => {
    samples.push(await sampleMetrics(url, METRICS_TOKEN));
  };
  await sample(); // resets the event-loop histogram: the start of the measured window
  await sleep(1_000);
  await sample();

  // ---- portal sockets
  const portal = Array.from({ length: PORTAL_SOCKETS }, (_, i) => {
    const q = new URLSearchParams({ tenantId: String(tenant.id), userId: String(admin.id), token });
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws?${q.toString()}`);
    const state = { ws, events: 0, closed: null as number | null, opened: false };
    ws.on('open', () => {
      state.opened = true;
      for (const d of deployPool.slice(i * 3, i * 3 + 3)) {
        ws.send(
          JSON.stringify({ type: 'subscribe', payload: { subscriptionKey: `device:${d.device_guid}` } }),
        );
      }
    });
    ws.on('message', () => (state.events += 1));
    ws.on('close', (code) => (state.closed = code));
    ws.on('error', () => undefined);
    return state;
  });
  const subscribeAll = (key: string) => {
    for (const s of portal) {
      if (s.ws.readyState === WebSocket.OPEN) {
        s.ws.send(JSON.stringify({ type: 'subscribe', payload: { subscriptionKey: key } }));
      }
    }
  };

  // ---- the load
  const counts = { deployments: 0, actions: 0, refreshes: 0, queries: 0, non2xx: 0, failures: 0 };
  const non2xx: Record<string, number> = {};
  const latencies: number[] = [];
  const jobs: number[] = [];
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const record = (what: string, status: number) => {
    if (status < 200 || status >= 300) {
      counts.non2xx += 1;
      non2xx[`${what} ${status}`] = (non2xx[`${what} ${status}`] ?? 0) + 1;
    }
  };
  const endAt = Date.now() + minutes * 60_000;
  const every = (ms: number, work: () => Promise<void>) =>
    (async () => {
      while (Date.now() < endAt) {
        const started = Date.now();
        await work().catch((err: unknown) => {
          counts.failures += 1;
          log(`load error: ${String(err)}`);
        });
        await sleep(Math.max(0, ms - (Date.now() - started)));
      }
    })();
  const queries = [
    () => `/api/customer/devices?page=${1 + Math.floor(Math.random() * Math.ceil(agents / 20))}`,
    () => `/api/customer/devices?search=${Math.floor(Math.random() * 100)}`,
    () => '/api/customer/devices?status=online',
    () => '/api/customer/devices/stats/dashboard',
    () => '/api/customer/deployments',
    () => '/api/customer/device-activity/overview',
  ];
  const loops = [
    every(DEPLOY_EVERY_MS, async () => {
      const targets = new Set<number>();
      while (targets.size < DEVICES_PER_DEPLOYMENT) {
        targets.add(pick(deployPool).id);
      }
      const res = await api<{ id: number }>('POST', '/api/customer/deployments', {
        package_id: pkg.id,
        device_ids: [...targets],
        job_name: `Soak ${counts.deployments + 1}`,
      });
      record('deploy', res.status);
      if (res.status === 200) {
        counts.deployments += 1;
        jobs.push(res.data.id);
        subscribeAll(`deployment:${res.data.id}`);
      }
    }),
    every(ACTION_EVERY_MS, async () => {
      const res = await api('POST', '/api/customer/deployments/device-actions', {
        // in turn: a device still restarting would refuse another restart (409)
        device_id: restartPool[counts.actions % restartPool.length]!.id,
        action_type: 'restart',
      });
      record('device action', res.status);
      counts.actions += 1;
    }),
    every(REFRESH_EVERY_MS, async () => {
      const res = await api('POST', `/api/customer/devices/${pick(deployPool).id}/refresh/hardware`);
      record('refresh', res.status);
      counts.refreshes += 1;
    }),
    every(0, async () => {
      const p = pick(queries)();
      const started = performance.now();
      const res = await api('GET', p);
      latencies.push(performance.now() - started);
      record(`GET ${p.split('?')[0]}`, res.status);
      counts.queries += 1;
    }),
    every(SAMPLE_EVERY_MS, sample),
  ];
  await Promise.all(loops);
  log(
    `load done: ${counts.deployments} deployments, ${counts.actions} device actions, ` +
      `${counts.refreshes} refreshes, ${counts.queries} queries`,
  );

  // ---- every deployment reaches a final state
  const drainStarted = Date.now();
  let unfinished: { id: number; status: string }[] = [];
  const finalCounts: Record<string, number> = {};
  for (;;) {
    unfinished = [];
    for (const k of Object.keys(finalCounts)) {
      delete finalCounts[k];
    }
    for (const id of jobs) {
      const job = await must<{ status: string }>('GET', `/api/customer/deployments/${id}`);
      finalCounts[job.status] = (finalCounts[job.status] ?? 0) + 1;
      if (job.status === 'pending' || job.status === 'running') {
        unfinished.push({ id, status: job.status });
      }
    }
    if (unfinished.length === 0 || Date.now() - drainStarted > DRAIN_MS) {
      break;
    }
    await sleep(2_000);
  }
  const drainSeconds = (Date.now() - drainStarted) / 1000;
  await sample();

  // ---- results
  const measured = samples.slice(1);
  const mib = (b: number) => Number((b / 2 ** 20).toFixed(1));
  const first = measured[0]!;
  const last = measured.at(-1)!;
  const loop = measured.map((s) => s.loopP99 * 1000).filter(Number.isFinite);
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(1));
  const result = {
    machine: machine(),
    command: `npm run bench -- soak${quick ? ' --quick' : ''}${values.agents ? ` --agents ${agents}` : ''}${values.minutes ? ` --minutes ${minutes}` : ''}`,
    agents,
    minutes,
    portal_sockets: PORTAL_SOCKETS,
    enrol_and_connect_seconds: Number(enrolSeconds.toFixed(1)),
    load: { ...counts, non2xx_by_kind: non2xx, query_p50_ms: pct(0.5), query_p99_ms: pct(0.99) },
    memory_mib: {
      rss: { start: mib(first.rss), peak: mib(Math.max(...measured.map((s) => s.rss))), end: mib(last.rss) },
      heap_used: {
        start: mib(first.heap),
        peak: mib(Math.max(...measured.map((s) => s.heap))),
        end: mib(last.heap),
      },
    },
    // how much CPU the server got: on a machine shared with other work, a server starved of CPU
    // shows event-loop delay that its own code did not cause
    server_cpu: {
      seconds: Number((last.cpu - first.cpu).toFixed(1)),
      share_of_one_core: Number(((last.cpu - first.cpu) / ((last.at - first.at) / 1000)).toFixed(2)),
    },
    event_loop_p99_ms: {
      max: Number(Math.max(...loop).toFixed(1)),
      median: Number(([...loop].sort((a, b) => a - b)[Math.floor(loop.length / 2)] ?? 0).toFixed(1)),
      samples: loop.length,
    },
    deployments: {
      created: jobs.length,
      final_states: finalCounts,
      unfinished: unfinished.length,
      drain_seconds: Number(drainSeconds.toFixed(1)),
    },
    portal: {
      open_at_end: portal.filter((s) => s.ws.readyState === WebSocket.OPEN).length,
      events_received: portal.reduce((n, s) => n + s.events, 0),
      closed_codes: portal.filter((s) => s.closed !== null).map((s) => s.closed),
    },
    server_log: {
      lines: serverLog.lines,
      error_lines: errorLines.length,
      first_errors: errorLines.slice(0, 10),
    },
    samples: measured.map((s) => ({
      t_s: Math.round((s.at - first.at) / 1000),
      rss_mib: mib(s.rss),
      heap_mib: mib(s.heap),
      loop_p99_ms: Number((s.loopP99 * 1000).toFixed(1)),
    })),
  };
  for (const s of portal) {
    s.ws.close(1000);
  }
  const file = writeResult('soak', result);
  const { samples: _samples, ...summary } = result;
  console.log(JSON.stringify(summary, null, 2));
  log(`wrote ${path.relative(repoRoot, file)}`);
  const ok =
    unfinished.length === 0 &&
    errorLines.length === 0 &&
    counts.failures === 0 &&
    result.portal.open_at_end === PORTAL_SOCKETS;
  if (!ok) {
    log('FAILED: unfinished deployments, server error lines, load errors or closed portal sockets (above)');
    exitCode = 1;
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  for (const c of children.reverse()) {
    await c.stop();
  }
  if (!values.keep) {
    await throwaway.drop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
