import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { ActivityOverviewPage, DeviceActivityOverviewResponse } from '../packages/contract/src/activity';
import { DeploymentListResponse } from '../packages/contract/src/deployments';
import { DashboardStats } from '../packages/contract/src/devices';
import { apiSuccess } from '../packages/contract/src/envelope';
import type { FloorPlan, FloorQuery } from './api-floor';
import { repoRoot } from './lib';

// Pieces of the API benchmark (api.ts): its cases, the capture of each case's SQL, the cost of
// serialising a response and the optional EXPLAIN of the captured statements.

export type ApiCase = { name: string; path: string; schema?: z.ZodType };
export type Captured = FloorQuery & { start: number; end: number };

/**
 * The requests measured, on a seed whose last device page is `lastPage`, with a second site and the
 * device sets of api-seed.ts; `unpaged`: with the product's unpaged overview (every device).
 */
export function apiCases(
  lastPage: number,
  seeded: { siteIds: number[]; rareTagId: number; commonTagId: number; groupId: number },
  { unpaged }: { unpaged: boolean },
): ApiCase[] {
  const site2 = seeded.siteIds[1];
  const cases: ApiCase[] = [
    { name: 'devices: first page', path: '/api/customer/devices' },
    {
      name: `devices: deep page (page ${lastPage}, the last)`,
      path: `/api/customer/devices?page=${lastPage}`,
    },
    { name: 'devices: status=offline', path: '/api/customer/devices?status=offline' },
    // 100 hostnames in the tenant (PC-004200 … PC-004299) and as many in every other tenant
    { name: 'devices: search "pc-0042"', path: '/api/customer/devices?search=pc-0042' },
    {
      name: 'devices: search "pc-00" + status=online + site',
      path: `/api/customer/devices?search=pc-00&status=online&site_id=${site2}`,
    },
    // the sets of bench/device-sets.ts (docs/product/device-sets.md#device-list-filters)
    { name: 'devices: tag, 1 % of devices', path: `/api/customer/devices?tag_id=${seeded.rareTagId}` },
    { name: 'devices: tag, 30 % of devices', path: `/api/customer/devices?tag_id=${seeded.commonTagId}` },
    { name: 'devices: group, 10 % of devices', path: `/api/customer/devices?group_id=${seeded.groupId}` },
    {
      name: 'dashboard stats',
      path: '/api/customer/devices/stats/dashboard',
      schema: apiSuccess(DashboardStats),
    },
    {
      name: 'deployments list',
      path: '/api/customer/deployments',
      schema: apiSuccess(DeploymentListResponse),
    },
    // what the Device Activity page asks for: the first page in the default order (docs/architecture.md#device-activity)
    {
      name: 'device activity overview: first page (paged, as the web app asks)',
      path: '/api/customer/device-activity/overview?page=1&limit=50&sort=utilization_30d&order=desc',
      schema: apiSuccess(ActivityOverviewPage),
    },
  ];
  if (unpaged) {
    // the product's call without paging parameters: every device in scope (20 MB at 100,000)
    cases.push({
      name: 'device activity overview: full list (spec call, unpaged)',
      path: '/api/customer/device-activity/overview',
      schema: apiSuccess(DeviceActivityOverviewResponse),
    });
  }
  return cases;
}

/**
 * What the route's response schema costs per request: fastify-type-provider-zod's serializer
 * runs z.safeEncode over the whole payload, then JSON.stringify; the floor only stringifies.
 */
export function serialiseCost(schema: z.ZodType, body: string) {
  const data: unknown = JSON.parse(body);
  const time = (work: () => void) => {
    const runs = Math.max(5, Math.min(500, Math.floor(2_000_000 / body.length)));
    work();
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) {
      work();
    }
    return Number(((performance.now() - t0) / runs).toFixed(3));
  };
  const encoded = z.safeEncode(schema, data);
  return {
    zod_encode_and_stringify_ms: encoded.success
      ? time(() => JSON.stringify(z.safeEncode(schema, data).data))
      : null,
    stringify_ms: time(() => JSON.stringify(data)),
  };
}

/**
 * Every statement the process sends while one request is in flight, into the array `recording()`
 * returns (AsyncLocalStorage does not follow app.inject into the handlers). Returns the undo.
 */
export function interceptQueries(recording: () => Captured[] | null): () => void {
  type QueryFn = (...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const store = recording();
    if (!store) {
      return original.apply(this, args);
    }
    const [q, p] = args as [string | { text: string; values?: unknown[]; rowMode?: 'array' }, unknown];
    const entry: Captured = {
      text: typeof q === 'string' ? q : q.text,
      values: Array.isArray(p) ? p : typeof q === 'object' ? (q.values ?? []) : [],
      ...(typeof q === 'object' && q.rowMode ? { rowMode: q.rowMode } : {}),
      start: performance.now(),
      end: Infinity,
    };
    store.push(entry);
    const finish = () => {
      entry.end = performance.now();
    };
    const cb = args.findIndex((a) => typeof a === 'function');
    if (cb >= 0) {
      const callback = args[cb] as QueryFn;
      args[cb] = (...r: unknown[]) => {
        finish();
        return callback(...r);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) {
      result.then(finish, finish);
    }
    return result;
  };
  return () => {
    proto.query = original;
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of every captured query, into bench/results/api-explain.txt (or `file`). */
export async function explainPlans(
  url: string,
  cases: ApiCase[],
  plan: FloorPlan,
  log: (line: string) => void,
  file = 'api-explain.txt',
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  // dropping the database at the end ends this connection: not an error of the run
  client.on('error', () => undefined);
  await client.connect();
  const out: string[] = [];
  for (const c of cases) {
    for (const q of plan[c.path]!.flat()) {
      // only queries: a captured begin/commit (a transaction around a read) has no plan
      if (!/^\s*(select|with)\b/i.test(q.text)) {
        continue;
      }
      const r = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) ${q.text}`,
        q.values,
      );
      const lines = r.rows.map((x) => x['QUERY PLAN']);
      out.push(
        `### ${c.name}: ${c.path}`,
        q.text,
        `-- parameters: ${JSON.stringify(q.values)}`,
        ...lines,
        '',
      );
      log(
        `explain ${c.name}: ${lines.find((l) => l.startsWith('Execution Time')) ?? ''} ${q.text.trim().replace(/\s+/g, ' ').slice(0, 70)}…`,
      );
    }
  }
  await client.end();
  fs.mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'bench/results', file), out.join('\n'));
}

/** The statements of the last capture that every other capture sent too (the same text, as many times). */
export function agreedStatements(captures: Captured[][]): Captured[] {
  const last = captures.at(-1) ?? [];
  const others = captures.slice(0, -1).map((captured) => captured.map((q) => q.text));
  return last.filter((q) =>
    others.every((texts) => {
      const at = texts.indexOf(q.text);
      if (at < 0) {
        return false;
      }
      texts.splice(at, 1);
      return true;
    }),
  );
}

/** Statements that started before all of the current wave's had finished ran concurrently. */
export function wavesOf(captured: Captured[]): Captured[][] {
  const waves: Captured[][] = [];
  for (const q of [...captured].sort((a, b) => a.start - b.start)) {
    const wave = waves.at(-1);
    if (wave && q.start < Math.min(...wave.map((w) => w.end))) {
      wave.push(q);
    } else {
      waves.push([q]);
    }
  }
  return waves;
}
