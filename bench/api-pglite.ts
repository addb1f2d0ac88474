// `npm run bench -- api --pglite`: the device list cases on the server over PGlite (the embedded
// database) with the measured tenant alone, PGlite ÷ PostgreSQL per case, and the server's longest
// event loop block per case (bench/event-loop.ts), PostgreSQL's server measured the same way.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, pgliteExtensions, pgliteStartParams } from '../packages/server/src/db/client';
import { seedWith, type Seeded } from './api-seed';
import { eventLoopArgs, takeEventLoopDelay } from './event-loop';
import { load, startChild } from './lib';

type Case = { name: string; path: string };

export type PgliteCases = {
  devices: number;
  seed_seconds: number;
  cases: {
    name: string;
    rps: number;
    p50_ms: number;
    p99_ms: number;
    errors: number;
    postgres_rps: number;
    ratio: number;
    /** the longest event loop block of the PGlite server during the case (bench/event-loop.ts) */
    event_loop_block_ms: number | null;
    postgres_event_loop_block_ms: number | null;
  }[];
  ratio: number;
};

export const isDeviceListCase = (c: Case) =>
  c.path.startsWith('/api/customer/devices?') || c.path === '/api/customer/devices';

/** Seeds the PGlite data directory as the PostgreSQL one was (same ids), with the tenant alone. */
export async function seedPglite(
  dataDir: string,
  devices: number,
  seeded: Seeded,
  log: (line: string) => void,
): Promise<{ liteData: string; seconds: number }> {
  const liteData = path.join(dataDir, 'pglite-server');
  const liteDir = path.join(liteData, 'pglite'); // where main.ts keeps it under DATA_DIR
  await (await openDatabase({ pgliteDir: liteDir })).close(); // migrations
  const lite = new PGlite(liteDir, { extensions: pgliteExtensions, startParams: pgliteStartParams });
  const liteSeeded = await seedWith(lite, { devices, total: devices, others: 0 }, log);
  await lite.close();
  if (
    liteSeeded.tenantId !== seeded.tenantId ||
    liteSeeded.userId !== seeded.userId ||
    liteSeeded.siteIds[1] !== seeded.siteIds[1]
  ) {
    throw new Error('the PGlite seed gave other ids than the PostgreSQL one');
  }
  log(`PGlite: seeded ${devices.toLocaleString('en')} devices in ${liteSeeded.seconds.toFixed(1)} s`);
  return { liteData, seconds: liteSeeded.seconds };
}

export async function runPgliteCases(options: {
  serverArgs: string[];
  serverEnv: Record<string, string | undefined>;
  serverPort: number;
  liteData: string;
  email: string;
  cases: Case[];
  postgres: { path: string; rps: number; event_loop_block_ms: number | null }[];
  load: { connections: number; seconds: number; warmupSeconds: number };
  log: (line: string) => void;
  children: { stop(): Promise<void> }[];
}): Promise<PgliteCases['cases']> {
  const { serverPort, log } = options;
  const probeFile = path.join(options.liteData, 'event-loop.json');
  const probe = eventLoopArgs(probeFile);
  const liteServer = await startChild(
    [...probe.args, ...options.serverArgs],
    { ...options.serverEnv, ...probe.env, DATABASE_URL: undefined, DATA_DIR: options.liteData },
    /Outpost is ready at/,
    300_000,
  );
  options.children.push(liteServer);
  // Sessions live in the database: this one signs in to the PGlite server's own.
  const signedIn = await fetch(`http://127.0.0.1:${serverPort}/api/customer/auth/dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: options.email }),
  });
  const liteToken = ((await signedIn.json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${liteToken}` };
  const rows: PgliteCases['cases'] = [];
  for (const c of options.cases.filter(isDeviceListCase)) {
    const url = `http://127.0.0.1:${serverPort}${c.path}`;
    const { connections, seconds, warmupSeconds } = options.load;
    await load(url, { connections, seconds: warmupSeconds, headers });
    await takeEventLoopDelay(liteServer.process, probeFile); // the warm-up's, left out
    const r = await load(url, { connections, seconds, headers });
    const delay = await takeEventLoopDelay(liteServer.process, probeFile);
    const postgres = options.postgres.find((x) => x.path === c.path)!;
    rows.push({
      name: c.name,
      rps: Math.round(r.rps),
      p50_ms: r.p50_ms,
      p99_ms: r.p99_ms,
      errors: r.non2xx + r.errors,
      postgres_rps: postgres.rps,
      ratio: Number((r.rps / postgres.rps).toFixed(3)),
      event_loop_block_ms: delay?.block_ms ?? null,
      postgres_event_loop_block_ms: postgres.event_loop_block_ms,
    });
    log(
      `PGlite ${c.name}: ${Math.round(r.rps)} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, event loop blocked up to ${delay?.block_ms} ms`,
    );
  }
  fs.rmSync(probeFile, { force: true });
  return rows;
}
