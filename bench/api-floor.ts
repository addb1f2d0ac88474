// The floor of the api benchmark: a bare node:http server, in its own process,
// that answers each benchmarked path with the same SQL the Outpost server ran for it, through the
// same driver (pg, a pool of the same size), after the same session check (the server's own
// session-token verify, then the same membership query). It does no routing framework, no
// validation, no mapping: what Outpost costs above it is the framework and the application.
//
// Started by bench/api.ts with: PORT, DATABASE_URL, SESSION_SECRET, FLOOR_PLAN (a JSON file
// `{ [path]: Query[][] }`: per path, the queries in the order captured, grouped in waves that the
// server ran concurrently; the session queries are the first).
import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { createSessionTokens } from '../packages/server/src/modules/auth/session-token';

export type FloorQuery = { text: string; values: unknown[]; rowMode?: 'array' };
export type FloorPlan = Record<string, FloorQuery[][]>;

const plan = JSON.parse(fs.readFileSync(process.env.FLOOR_PLAN!, 'utf8')) as FloorPlan;
// the key as the server's config makes it from SESSION_SECRET (config.ts loadSessionSecret)
const tokens = createSessionTokens(new TextEncoder().encode(process.env.SESSION_SECRET));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => undefined);

// drizzle's node-postgres driver leaves timestamps, dates and intervals as the strings PostgreSQL
// sends; so does the floor (parsing them into Date objects would make it slower than the server).
const { builtins } = pg.types;
const asText = new Set<number>([builtins.TIMESTAMPTZ, builtins.TIMESTAMP, builtins.DATE, builtins.INTERVAL]);
const defaultParser = pg.types.getTypeParser as (
  id: number,
  format?: 'text' | 'binary',
) => (v: string) => unknown;
const types = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    asText.has(id) ? (v: string) => v : defaultParser(id, format)) as typeof pg.types.getTypeParser,
};

async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const waves = plan[req.url ?? ''];
  if (!waves) {
    res.writeHead(404).end();
    return;
  }
  const header = req.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  const claims = token ? await tokens.verify(token) : null;
  if (!claims) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false}');
    return;
  }
  const results: unknown[][] = [];
  for (const wave of waves) {
    const done = await Promise.all(
      wave.map(async (q): Promise<unknown[]> => {
        if (q.rowMode === 'array') {
          const r = await pool.query<unknown[]>({ text: q.text, values: q.values, rowMode: 'array', types });
          return r.rows;
        }
        const r = await pool.query<Record<string, unknown>>({ text: q.text, values: q.values, types });
        return r.rows;
      }),
    );
    results.push(...done);
  }
  // the membership row must exist, as in the server's resolveSession
  if (results[0]?.length === 0) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ success: true, data: results.slice(1) }));
}

const server = http.createServer((req, res) => {
  answer(req, res).catch((err: unknown) => {
    console.error(err);
    res.writeHead(500).end();
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('floor ready'));
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
