import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { inputMessages } from '@outpost/contract/messages';
import type { z } from 'zod';
import { startTestServer } from '../test/harness';
import type { TestServer } from '../test/harness';
import { fuzzed, garbage, hostileString, validShaped } from '../test/zod-arbitrary';
import type { Examples } from '../test/zod-arbitrary';
import { devices, users } from './db/schema/index';
import { hashSecret } from './modules/agents/agent-secrets';
import { DEMO } from './modules/demo/demo.seed';
import { addMember } from './modules/tenants/tenants.service';
import type { ApiRoute } from './plugins/access';

// Property-based fuzzing of every registered /api route (bad input). The routes and
// their zod schemas come from the server itself (app.apiRoutes, plugins/access.ts), so a route
// added later is fuzzed without anyone listing it. For each route, fast-check generates requests
// from the route's params, querystring and body schemas (test/zod-arbitrary.ts): values of the
// right shape (which reach the route's logic), the same with garbage at any level, and pure
// garbage (random JSON, invalid JSON text, wrong content types, oversized bodies), sent over HTTP
// as the Acme administrator, a regular member, or nobody. Every answer must be:
//
//   - never a 5xx;
//   - a rejection (4xx) in the envelope, { success: false, error: '<a message>' };
//   - after a rejection, the row counts of the main tables exactly as before (no partial writes).
//     Successful calls may change them (the fuzzer creates, renames and deletes for real).
//
// Not fuzzed here: the two websockets (GET /api/ws, /api/agent/ws: their frames have their own
// tests) and the API documentation (/api/docs, a third-party plugin with no contract schemas).
// The multipart upload (POST /api/customer/files) gets the generic garbage bodies only, no
// generated multipart streams (files.int.test.ts covers broken uploads).
//
// Cost: FUZZ_RUNS cases per route (default 60; 66 routes today): about 4,000 requests, under a minute.
// Raise it by hand, e.g. FUZZ_RUNS=2000 npx vitest run packages/server/src/fuzz-routes.int.test.ts;
// FUZZ_SEED=<n> replays a reported run; FUZZ_REPORT=1 prints each route's answers by status.

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ (Math.random() * 2 ** 31);

/** The tables a request may write; an answer of 4xx must leave every count as it was. */
const COUNTED_TABLES = [
  'tenants',
  'users',
  'user_sites',
  'sites',
  'devices',
  'device_commands',
  'files',
  'deployment_packages',
  'package_steps',
  'package_step_files',
  'deployment_jobs',
  'device_deployments',
  'deployment_job_files',
  'enrollment_tokens',
  'audit_logs',
  'scripts',
  'script_versions',
];

type Caller = 'admin' | 'member' | 'anonymous';
type FuzzRequest = {
  caller: Caller;
  path: string;
  query: string;
  body?: { text: string; contentType?: string };
};
type Answer = { status: number; body: unknown; text: string };

const isZod = (schema: unknown): schema is z.ZodType =>
  typeof schema === 'object' && schema !== null && '_zod' in schema;

/** A generated value as it travels in a path segment or query string. */
const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value !== null && typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** JSON text that is not JSON, or is JSON the parser has reasons to dislike. */
const badJsonText = fc.constantFrom(
  '',
  ' ',
  '{',
  '{"a":',
  '[1,',
  'nul',
  'NaN',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"a":1,}',
  '"\\u0000"',
  '\u0000',
  '\ufeff{}',
  '1e999999',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '[' + '['.repeat(5_000) + ']'.repeat(5_000) + ']',
);

const wrongContentType = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/jsonx',
  '',
);

/** Past the server's 1 MiB body limit. */
const OVERSIZED = JSON.stringify({ name: 'x'.repeat(1_100_000) });

/** Percent-encoded; a lone surrogate (which UTF-8 cannot carry) travels as U+FFFD. */
const encode = (text: string) =>
  encodeURIComponent(
    text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

const queryFrom = (value: unknown): string => {
  if (value === undefined) {
    return '';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `?${encode(asText(value))}`;
  }
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(value)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item !== undefined) {
        params.append(key, asText(item));
      }
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * Remembers values from successful answers by property name (at most 20 distinct per name), for
 * the generators of later routes: GET routes run first, so a step's details, a site code or an
 * id seen there are offered to the routes that change things.
 */
function harvest(examples: Map<string, unknown[]>, value: unknown, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') {
    return;
  }
  for (const [key, child] of Array.isArray(value)
    ? value.map((v) => ['', v] as const)
    : Object.entries(value)) {
    if (key && child !== null && child !== undefined) {
      const seen = examples.get(key) ?? [];
      const text = JSON.stringify(child);
      if (seen.length < 20 && text.length < 10_000 && !seen.some((v) => JSON.stringify(v) === text)) {
        seen.push(child);
        examples.set(key, seen);
      }
    }
    harvest(examples, child, depth + 1);
  }
}

function requestArbitrary(
  route: ApiRoute,
  callers: fc.Arbitrary<Caller>,
  examples: Examples,
): fc.Arbitrary<FuzzRequest> {
  const schema = route.schema ?? {};
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const paramsSchema = isZod(schema.params) ? fuzzed(schema.params, examples) : fc.constant({});
  const segment = (value: unknown) => encode(asText(value));
  const path = fc
    .tuple(
      paramsSchema,
      fc.dictionary(
        fc.constantFrom(...(paramNames.length ? paramNames : ['_'])),
        fc.oneof(garbage, hostileString),
      ),
    )
    .map(([shaped, raw]) => {
      const values = { ...raw, ...(typeof shaped === 'object' && shaped !== null ? shaped : {}) } as Record<
        string,
        unknown
      >;
      return route.url.replace(/:(\w+)/g, (_m, name: string) => segment(values[name] ?? ''));
    });

  const query = fc.oneof(
    {
      arbitrary: isZod(schema.querystring)
        ? fuzzed(schema.querystring, examples).map(queryFrom)
        : fc.constant(''),
      weight: 6,
    },
    { arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }).map(queryFrom), weight: 1 },
    {
      arbitrary: fc.constantFrom('?%zz', '?a[b]=1&a[c]=2', '?&&==&', '?limit=1&limit=2', '?page'),
      weight: 1,
    },
  );

  const json = (value: unknown) =>
    value === undefined ? undefined : { text: JSON.stringify(value), contentType: 'application/json' };
  const carriesBody = route.method !== 'GET' && route.method !== 'HEAD';
  const body: fc.Arbitrary<FuzzRequest['body']> = carriesBody
    ? fc.oneof(
        {
          arbitrary: isZod(schema.body) ? validShaped(schema.body, examples).map(json) : garbage.map(json),
          weight: 20,
        },
        {
          arbitrary: isZod(schema.body) ? fuzzed(schema.body, examples).map(json) : garbage.map(json),
          weight: 20,
        },
        { arbitrary: garbage.map(json), weight: 10 },
        { arbitrary: badJsonText.map((text) => ({ text, contentType: 'application/json' })), weight: 5 },
        {
          arbitrary: fc
            .tuple(
              wrongContentType,
              fc.oneof(
                hostileString,
                fc.jsonValue().map((v) => JSON.stringify(v)),
              ),
            )
            .map(([contentType, text]) => ({ text, contentType: contentType || undefined })),
          weight: 5,
        },
        { arbitrary: fc.constant(undefined), weight: 5 },
        { arbitrary: fc.constant({ text: OVERSIZED, contentType: 'application/json' }), weight: 1 },
      )
    : fc.constant(undefined);

  return fc.record(
    { caller: callers, path, query, body },
    { requiredKeys: ['caller', 'path', 'query', 'body'] },
  );
}

describe('fuzzing every registered /api route with generated input', () => {
  let server: TestServer;
  let routes: ApiRoute[];
  let acmeTenantId: number;
  const tokens: Record<Caller, string | undefined> = {
    admin: undefined,
    member: undefined,
    anonymous: undefined,
  };

  beforeAll(async () => {
    // The sign-in routes are fuzzed too: their per-minute limit must not starve the fuzzer's own
    // sign-ins (a 429 is a correct answer, but it would stop the routes' logic being reached).
    // The API alone: no web build, so the SPA's catch-all route never takes an /api path (the
    // same server on every machine, whether or not `npm run build` ran there).
    server = await startTestServer({
      env: { SIGN_IN_PER_MINUTE: '100000', WEB_DIST_DIR: '/nonexistent/outpost-web-dist' },
    });
    const demo = (await server.seedDemo())!;
    acmeTenantId = demo.acmeTenantId;
    // A few devices (the demo seed has none without agents), so device routes with small ids
    // reach their logic. Offline ones: an action on an online device with no agent connected
    // waits for the agent's answer and ends in 504 AGENT_TIMEOUT after 15 s, by design (the
    // device-actions tests cover that path with a connected agent).
    await server.database.db.insert(devices).values(
      demo.siteIds.flatMap((siteId, i) =>
        [0, 1].map((n) => ({
          tenantId: demo.acmeTenantId,
          siteId,
          hostname: `fuzz-${i}-${n}`,
          deviceGuid: crypto.randomUUID(),
          secretHash: hashSecret(`fuzz-${i}-${n}`),
          status: 'offline' as const,
          osType: 'windows' as const,
        })),
      ),
    );
    routes = server.app.apiRoutes.filter(
      (r) => r.method !== 'HEAD' && !r.websocket && !r.url.startsWith('/api/docs'),
    );
    // A fresh embedded database, its migrations and the demo seed: on a loaded CI machine,
    // beside six other suites, this took longer than the project's 60 s hook default.
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  /**
   * A session for one of Acme's users as `role` with every site: an earlier route may have
   * removed the user (invited again) or changed their role or sites (restored).
   */
  async function signIn(email: string, role: 'tenant_admin' | 'user'): Promise<string> {
    const db = server.database.db;
    const where = and(eq(users.tenantId, acmeTenantId), eq(users.email, email));
    const [user] = await db.update(users).set({ role, siteAccessType: 'all' }).where(where).returning();
    if (!user) {
      await addMember(db, { tenantId: acmeTenantId, email, role });
    }
    return (await server.devSignIn(email)).token;
  }

  async function rowCounts(): Promise<Record<string, string>> {
    const columns = COUNTED_TABLES.map((t) => `(select count(*) from ${t}) as ${t}`).join(', ');
    // Both drivers answer with { rows } (PGlite and node-postgres).
    const result: unknown = await server.database.db.execute(sql.raw(`select ${columns}`));
    const row = (result as { rows: Record<string, unknown>[] }).rows[0]!;
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]));
  }

  async function send(route: ApiRoute, req: FuzzRequest): Promise<Answer> {
    const headers: Record<string, string> = {};
    const token = tokens[req.caller];
    if (token) {
      headers.authorization = `Bearer ${token}`;
    }
    if (req.body?.contentType) {
      headers['content-type'] = req.body.contentType;
    }
    const res = await fetch(server.url + req.path + req.query, {
      method: route.method,
      headers,
      body: req.body?.text,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: checked below
    }
    return { status: res.status, body, text };
  }

  const clip = (text: string, max = 300) =>
    text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
  const describeRequest = (route: ApiRoute, req: FuzzRequest) =>
    `${route.method} ${clip(req.path + req.query)} as ${req.caller}` +
    (req.body ? ` (${req.body.contentType ?? 'no content type'}) ${clip(req.body.text)}` : '');

  it('generates values of each body schema that the schema accepts (the fuzzer reaches route logic)', () => {
    const bodies = server.app.apiRoutes.filter((r) => isZod(r.schema?.body));
    expect(bodies.length).toBeGreaterThan(15);
    const unreachable: string[] = [];
    for (const route of bodies) {
      const schema = route.schema!.body as z.ZodType;
      const samples = fc.sample(validShaped(schema), { numRuns: 60, seed: 1 });
      if (!samples.some((value) => schema.safeParse(value).success)) {
        unreachable.push(`${route.method} ${route.url}`);
      }
    }
    // An imported package's steps are JSON documents whose required fields depend on the step
    // type (the step catalog's cross-field rules), which a JSON Schema cannot say: random values
    // rarely pass. A single step's save is reached since the catalogue has types whose details
    // are small (WAIT: its seconds). The fuzzer still reaches the import's logic through its other
    // parts (names, order).
    expect(unreachable).toEqual(['POST /api/customer/deployment-packages/import']);
  });

  it('answers in the envelope what is refused before any route runs (router, HTTP parser)', async () => {
    const cases: [string, number, string][] = [
      [`/api/customer/devices/${'9'.repeat(150)}`, 414, inputMessages.paramTooLong],
      ['/api/customer/devices/%zz', 400, inputMessages.urlInvalid],
      [`/api/customer/devices?search=${'x'.repeat(20_000)}`, 431, inputMessages.headersTooLarge],
    ];
    for (const [path, status, error] of cases) {
      const res = await fetch(server.url + path);
      const body = (await res.json()) as { code?: unknown };
      expect(res.status, path.slice(0, 60)).toBe(status);
      expect(body).toMatchObject({ success: false, error });
      expect(typeof body.code).toBe('string');
    }
  });

  it(
    'answers every generated request without a 5xx; rejections are 4xx with a message and write nothing',
    async () => {
      const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      const ordered = [...routes].sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));
      expect(ordered.length).toBeGreaterThan(50);
      const failures: string[] = [];
      const statuses: Record<string, number> = {};
      let cases = 0;
      const perRoute: Record<string, Record<number, number>> = {};
      const examples = new Map<string, unknown[]>();

      for (const route of ordered) {
        // Fresh sessions for each route: an earlier route may have changed the users.
        tokens.admin = await signIn(DEMO.adminEmail, 'tenant_admin');
        tokens.member = await signIn(DEMO.techEmail, 'user');
        const callers = fc.oneof(
          { arbitrary: fc.constant<Caller>('admin'), weight: 6 },
          { arbitrary: fc.constant<Caller>('member'), weight: 1 },
          { arbitrary: fc.constant<Caller>('anonymous'), weight: 1 },
        );
        const property = fc.asyncProperty(requestArbitrary(route, callers, examples), async (req) => {
          cases += 1;
          const before = await rowCounts();
          const answer = await send(route, req);
          const bucket = `${Math.floor(answer.status / 100)}xx`;
          statuses[bucket] = (statuses[bucket] ?? 0) + 1;
          const routeStatuses = (perRoute[`${route.method} ${route.url}`] ??= {});
          routeStatuses[answer.status] = (routeStatuses[answer.status] ?? 0) + 1;
          const what = `${describeRequest(route, req)} → ${answer.status} ${clip(answer.text)}`;
          if (answer.status < 300 && route.method === 'GET') {
            harvest(examples, answer.body);
          }
          if (answer.status >= 500) {
            throw new Error(`5xx: ${what}`);
          }
          if (answer.status >= 400) {
            const envelope = answer.body as { success?: unknown; error?: unknown } | null;
            if (
              typeof envelope !== 'object' ||
              envelope === null ||
              envelope.success !== false ||
              typeof envelope.error !== 'string' ||
              envelope.error.trim() === ''
            ) {
              throw new Error(`rejection without an envelope message: ${what}`);
            }
            const after = await rowCounts();
            const changed = COUNTED_TABLES.filter((t) => before[t] !== after[t]).map(
              (t) => `${t} ${before[t]}→${after[t]}`,
            );
            if (changed.length > 0) {
              throw new Error(`a rejected request wrote rows (${changed.join(', ')}): ${what}`);
            }
          }
        });
        // No shrinking: the failing request is reported as sent (shrinking replays hundreds).
        const details = await fc.check(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
        if (details.failed) {
          failures.push(
            `${route.method} ${route.url}: ${String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance)}\n  replay: FUZZ_SEED=${SEED} (path ${details.counterexamplePath})`,
          );
        }
      }

      if (process.env.FUZZ_REPORT) {
        // FUZZ_REPORT=1: which answers each route gave (to see what the fuzzer reaches)
        for (const [route, counts] of Object.entries(perRoute)) {
          console.log(`${route}  ${JSON.stringify(counts)}`);
        }
        console.log(`${cases} cases, seed ${SEED}: ${JSON.stringify(statuses)}`);
      }
      expect(failures, `seed ${SEED}`).toEqual([]);
      expect(cases).toBeGreaterThanOrEqual(ordered.length * RUNS);
      // The fuzzer is not only knocking on the validation door: some requests get through.
      expect(statuses['2xx'] ?? 0).toBeGreaterThan(cases / 20);
    },
    30 * 60_000,
  );
});
