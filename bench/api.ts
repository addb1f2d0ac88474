// Benchmark "api": the customer API at scale on PostgreSQL, beside a floor.
//
//   npm run bench -- api            # 100,000 devices in the measured tenant, 1,000,000 in all
//   npm run bench -- api --quick    # 10,000 in the tenant, 100,000 in all, shorter runs
//   npm run bench -- api --million  # 1,000,000 devices in one tenant (bench/results/api-million.json)
//   options: --postgres URL (a server to create a throwaway database on; default $BENCH_DATABASE_URL,
//            $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
//            --into URL (seed into this empty database and keep it; a database seeded so before is
//            measured as it is, migrated, without seeding)
//            --connections 10 --duration S (per case) --runtime tsx|compiled --keep (keep the database)
//            BENCH_SERVER_NODE_ARGS: node options for the server process alone (a CPU profile)
//            --explain (EXPLAIN ANALYZE every captured statement into bench/results/api-explain.txt)
//            --capture-only (seed and capture, print the statements, no load)
//            --devices N --total N --tenants N (other sizes)
//            --before DIR (the server of another checkout beside this one: before ÷ floor per case,
//            into bench/results/api-floor-ratio.json)
//            --pglite (then the device list cases on the server over PGlite, with the measured tenant
//            alone, and PGlite ÷ PostgreSQL per case)
//
// 1. Creates a throwaway database, migrates it (openDatabase) and bulk-seeds it (api-seed.ts).
// 2. Captures the SQL: the real app (buildApp) answers each case once in this process, with
//    pg's Client.query wrapped to record, per request, the statements and their parameters, and
//    which ran concurrently. That is the floor's plan (api-floor.ts).
// 3. Starts the Outpost server (packages/server/src/main.ts through tsx, or dist/main.js) and the
//    floor, each in its own process on its own port, and drives every case against both with
//    autocannon in a third process, one case at a time (a short warm-up, then the measured run).
// 4. Prints the table and writes bench/results/api.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DeviceListResponse } from '../packages/contract/src/devices';
import { apiSuccess } from '../packages/contract/src/envelope';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { openDatabase } from '../packages/server/src/db/client';
import { openToolSession } from '../packages/server/src/modules/auth/auth.service';
import { createSessionTokens } from '../packages/server/src/modules/auth/session-token';
import { createThrowawayDatabase } from '../packages/server/test/harness';
import type { FloorPlan } from './api-floor';
import { apiOptions } from './api-options';
import { runPgliteCases, seedPglite } from './api-pglite';
import { seed, seededFacts } from './api-seed';
import { serverArgs as serverNodeArgs } from './fleet-setup';
import {
  agreedStatements,
  apiCases,
  explainPlans,
  interceptQueries,
  serialiseCost,
  wavesOf,
} from './api-parts';
import type { Captured } from './api-parts';
import { comparableRatio, measureCase, printBeforeAfter, startBefore } from './api-measure';
import { eventLoopArgs, takeEventLoopDelay } from './event-loop';
import { freePort, geometricMean, machine, repoRoot, startChild, writeResult } from './lib';

const { values, quick, size, seconds, warmupSeconds, connections, resultName } = apiOptions();
const baseUrl =
  values.postgres ??
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
class CaptureOnly extends Error {}
const SESSION_SECRET = 'bench-session-secret-0123456789-abcdef';
const log = (line: string) => console.error(`[api] ${line}`);

// ---- 1. database and seed
const throwaway = values.into
  ? { url: values.into, drop: () => Promise.resolve() }
  : await createThrowawayDatabase(baseUrl);
log(`database ${new URL(throwaway.url).pathname.slice(1)}`);
const children: { stop(): Promise<void> }[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-api-'));
try {
  const database = await openDatabase({ databaseUrl: throwaway.url });
  const seedPool = new pg.Pool({ connectionString: throwaway.url, max: 1 });
  seedPool.on('error', () => undefined);
  // --into a database seeded before: measured as it is
  const seededBefore = values.into ? await seededFacts(seedPool) : null;
  const seeded = seededBefore ? { ...seededBefore, seconds: 0 } : await seed(seedPool, size, log);
  await seedPool.end();
  log(`seeded ${size.total.toLocaleString('en')} devices in ${seeded.seconds.toFixed(1)} s`);

  const lastPage = Math.ceil(size.devices / 20);
  const deviceList = apiSuccess(DeviceListResponse);
  // the unpaged overview of a million devices is 200 MB an answer: not a case of --million
  const cases = apiCases(lastPage, seeded, { unpaged: !values.million });
  const serialise: Record<string, ReturnType<typeof serialiseCost>> = {};

  // ---- 2. capture each case's SQL through the real app
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    OUTPOST_DEMO: '0',
  });
  const token = await openToolSession(database.db, createSessionTokens(config.sessionSecret), seeded.email);
  const auth = { authorization: `Bearer ${token}` };
  const plan: FloorPlan = {};
  const responseBytes: Record<string, number> = {};
  {
    const app = await buildApp({ config, database, logger: false });
    let recording: Captured[] | null = null;
    const restoreQuery = interceptQueries(() => recording);
    try {
      for (const c of cases) {
        const once = async () => {
          const captured: Captured[] = [];
          recording = captured;
          const res = await app.inject({ method: 'GET', url: c.path, headers: auth });
          recording = null;
          if (res.statusCode !== 200) {
            throw new Error(`${c.path}: ${res.statusCode} ${res.body.slice(0, 500)}`);
          }
          return { captured, res };
        };
        // The app's own timers (the deployment scheduler, the presence sweeper, the device counters'
        // compaction) may send a statement while a request is in flight, more often the slower the
        // request: three captures, and the request's statements are those all three agree on.
        // One uncaptured request first: what the server reuses (a search's total) is then reused
        // by all three, as under load (a first search counts, the next ones walk: other statements).
        await once();
        const captures = [await once(), await once(), await once()];
        const { res } = captures[2]!;
        const captured = agreedStatements(captures.map((x) => x.captured));
        if (!/from "(users|sessions)"/.test(captured[0]?.text ?? '')) {
          throw new Error(`${c.path}: the first query is not the session check: ${captured[0]?.text}`);
        }
        const waves = wavesOf(captured);
        plan[c.path] = waves.map((w) =>
          w.map(({ text, values: v, rowMode }) => ({ text, values: v, rowMode })),
        );
        responseBytes[c.path] = res.rawPayload.length;
        serialise[c.path] = serialiseCost(c.schema ?? deviceList, res.body);
        log(
          `${c.name}: ${captured.length} statements in ${waves.length} waves, ${res.body.length} bytes, zod encode + stringify ${serialise[c.path]!.zod_encode_and_stringify_ms} ms, stringify ${serialise[c.path]!.stringify_ms} ms`,
        );
      }
    } finally {
      restoreQuery();
      await app.close();
      await database.close();
    }
  }
  if (values.explain) {
    await explainPlans(throwaway.url, cases, plan, log, `${resultName}-explain.txt`);
  }
  const planFile = path.join(config.dataDir, 'floor-plan.json');
  fs.writeFileSync(planFile, JSON.stringify(plan));
  if (values['capture-only']) {
    console.log(JSON.stringify(plan, null, 2));
    throw new CaptureOnly();
  }

  // ---- 3. the server and the floor in their own processes
  const runtime = values.runtime;
  // with BENCH_SERVER_NODE_ARGS ("--cpu-prof --cpu-prof-dir=…"), as the fleet benchmarks (docs/development.md#benchmarks)
  const serverArgs = serverNodeArgs(runtime);
  const serverPort = await freePort();
  const serverEnv = (port: number, dir = config.dataDir) => ({
    DATABASE_URL: throwaway.url,
    SESSION_SECRET,
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    OUTPOST_DEMO: '0',
    // no agent is connected: the seeded fleet stays as seeded (bench/api-seed.ts)
    AGENT_PRESENCE_GRACE_MS: '3600000',
  });
  // the server's longest event loop block per case (bench/event-loop.ts)
  const probeFile = path.join(config.dataDir, 'event-loop.json');
  const probe = eventLoopArgs(probeFile);
  const server = await startChild(
    [...probe.args, ...serverArgs],
    { ...probe.env, ...serverEnv(serverPort) },
    /Outpost is ready at/,
  );
  children.push(server);
  const before = values.before
    ? await startBefore(values.before, (port) => serverEnv(port, path.join(config.dataDir, 'before')), log)
    : null;
  if (before) {
    children.push(before.child);
  }
  const floorPort = await freePort();
  const floor = await startChild(
    ['--import', 'tsx', path.join(repoRoot, 'bench/api-floor.ts')],
    { DATABASE_URL: throwaway.url, SESSION_SECRET, FLOOR_PLAN: planFile, PORT: String(floorPort) },
    /floor ready/,
  );
  children.push(floor);
  log(`server (${runtime}) on :${serverPort}, floor on :${floorPort}`);

  // ---- 4. load, one case at a time: Outpost, the code before (--before), then the floor
  const measureOptions = { connections, seconds, warmupSeconds, headers: auth, log };
  const results = [];
  for (const c of cases) {
    const run = async (port: number, pid: number | undefined) => {
      const isServer = port === serverPort;
      const r = await measureCase(`http://127.0.0.1:${port}${c.path}`, pid, {
        ...measureOptions,
        // the warm-up's longest block is left out
        afterWarmup: isServer ? () => takeEventLoopDelay(server.process, probeFile) : undefined,
      });
      const delay = isServer ? await takeEventLoopDelay(server.process, probeFile) : null;
      return { ...r, event_loop_block_ms: delay?.block_ms ?? null };
    };
    const outpost = await run(serverPort, server.process.pid);
    const old = before ? await run(before.port, before.child.process.pid) : null;
    const bare = await run(floorPort, floor.process.pid);
    const row = {
      name: c.name,
      path: c.path,
      rps: Math.round(outpost.rps),
      p50_ms: outpost.p50_ms,
      p99_ms: outpost.p99_ms,
      floor_rps: Math.round(bare.rps),
      floor_p50_ms: bare.p50_ms,
      floor_p99_ms: bare.p99_ms,
      ratio: Number((outpost.rps / bare.rps).toFixed(3)),
      cpu_ms_per_request: outpost.cpu_ms_per_request,
      event_loop_block_ms: outpost.event_loop_block_ms,
      floor_cpu_ms_per_request: bare.cpu_ms_per_request,
      errors: outpost.non2xx + outpost.errors,
      floor_errors: bare.non2xx + bare.errors,
      statements: plan[c.path]!.flat().length,
      response_bytes: responseBytes[c.path],
      ...serialise[c.path],
      ...(old && {
        before_rps: Math.round(old.rps),
        before_p99_ms: old.p99_ms,
        before_ratio: Number((old.rps / bare.rps).toFixed(3)),
        before_cpu_ms_per_request: old.cpu_ms_per_request,
      }),
    };
    results.push(row);
    log(
      `${c.name}: ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms; floor ${row.floor_rps} req/s`,
    );
  }
  // ---- 5. optionally, the device list on PGlite (the embedded database) with the tenant alone
  let pglite = null;
  if (values.pglite) {
    for (const c of children.splice(0).reverse()) {
      await c.stop();
    }
    const lite = await seedPglite(dataDir, size.devices, seeded, log);
    const liteCases = await runPgliteCases({
      serverArgs,
      serverEnv: {
        SESSION_SECRET,
        HOST: '127.0.0.1',
        PORT: String(serverPort),
        LOG_LEVEL: 'warn',
        OUTPOST_DEMO: '0',
        AGENT_PRESENCE_GRACE_MS: '3600000',
        OUTPOST_ALLOW_DEV_LOGIN: '1',
      },
      serverPort,
      liteData: lite.liteData,
      email: seeded.email,
      cases,
      postgres: results,
      load: { connections, seconds, warmupSeconds },
      log,
      children,
    });
    pglite = {
      devices: size.devices,
      seed_seconds: Number(lite.seconds.toFixed(1)),
      cases: liteCases,
      ratio: Number(geometricMean(liteCases.map((x) => x.ratio).filter((x) => x > 0)).toFixed(3)),
    };
  }

  const ratios = results.map((r) => r.ratio).filter((x) => Number.isFinite(x) && x > 0);
  const floorRatio = Number(geometricMean(ratios).toFixed(3));
  const file = writeResult(before ? 'api-floor-ratio' : resultName, {
    cases: results,
    floor_ratio: floorRatio,
    // the seven cases where the floor runs the same work (the overview's are reported apart)
    floor_ratio_comparable: comparableRatio(results, (r) => r.ratio),
    ...(before && {
      before: values.before,
      before_floor_ratio_comparable: comparableRatio(results, (r) => r.before_ratio),
    }),
    quick,
    size: { tenant_devices: size.devices, total_devices: size.total, tenants: size.others + 1 },
    seed_seconds: Number(seeded.seconds.toFixed(1)),
    connections,
    seconds_per_case: seconds,
    runtime,
    pglite,
    machine: machine(),
  });

  console.log(
    `\napi${quick ? ' --quick' : ''}: PostgreSQL, ${size.devices.toLocaleString('en')} devices in the tenant, ` +
      `${size.total.toLocaleString('en')} in ${size.others + 1} tenants (seeded in ${seeded.seconds.toFixed(1)} s), ` +
      `${connections} connections × ${seconds} s per case, server via ${runtime}, Node ${process.version}, ` +
      `load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}\n`,
  );
  console.log(
    '| case | req/s | p50 ms | p99 ms | floor req/s | floor p99 ms | Outpost ÷ floor | server CPU ms/req | floor CPU ms/req | response | zod encode + stringify ms | stringify ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.floor_rps} | ${r.floor_p99_ms} | ${r.ratio.toFixed(2)} | ` +
        `${r.cpu_ms_per_request ?? 'n/a'} | ${r.floor_cpu_ms_per_request ?? 'n/a'} | ` +
        `${((r.response_bytes ?? 0) / 1024).toFixed(1)} KiB | ${r.zod_encode_and_stringify_ms ?? 'n/a'} | ${r.stringify_ms} |`,
    );
  }
  if (before) {
    printBeforeAfter(results);
  }
  if (pglite) {
    console.log(
      `\nPGlite, ${pglite.devices.toLocaleString('en')} devices in one tenant (seeded in ${pglite.seed_seconds} s)\n`,
    );
    console.log(
      '| case | req/s | p50 ms | p99 ms | PostgreSQL req/s | PGlite ÷ PostgreSQL | event loop block ms (PostgreSQL) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of pglite.cases) {
      console.log(
        `| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.postgres_rps} | ${r.ratio.toFixed(2)} | ` +
          `${r.event_loop_block_ms ?? 'n/a'} (${r.postgres_event_loop_block_ms ?? 'n/a'}) |`,
      );
    }
    console.log(`\nPGlite ÷ PostgreSQL (geometric mean): ${pglite.ratio.toFixed(2)}`);
  }
  console.log(
    `\nfloor_ratio (geometric mean of Outpost ÷ floor): ${floorRatio.toFixed(2)}; written to ${file}`,
  );
} catch (err) {
  if (!(err instanceof CaptureOnly)) {
    console.error(err);
    process.exitCode = 1;
  }
} finally {
  for (const c of children.reverse()) {
    await c.stop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (values.keep) {
    log(`kept database ${throwaway.url}`);
  } else {
    await throwaway.drop();
  }
}
