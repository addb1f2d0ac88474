import crypto from 'node:crypto';
import type pg from 'pg';

// Prepared statements for the hot queries on PostgreSQL (docs/decisions/2026-11-28-prepared-statements.md).
// Drizzle sends every query unnamed, so PostgreSQL parses and plans its text on every execution: a
// device lookup by guid cost about 110 µs of the server's CPU unnamed and 65 µs named on this
// machine. A text executed often gets a name (a digest of the text), and node-postgres then parses
// it once per pooled connection; PostgreSQL keeps its plan per connection and, in its default
// plan_cache_mode, re-plans each execution until a generic plan proves as cheap. The names handed
// out are bounded (each is a prepared statement on every pooled connection), and a pooler that
// cannot carry them (PgBouncer in transaction mode before 1.21) turns them off with
// DATABASE_PREPARED_STATEMENTS=off.

export type StatementNaming = {
  /** executions of one text before it is named */
  nameAfter: number;
  /** names handed out at most */
  maxNames: number;
};

export const DEFAULT_NAMING: StatementNaming = { nameAfter: 20, maxNames: 300 };

/** Texts counted at most before the count starts again (one-off texts never grow it past this). */
const MAX_COUNTED = 10_000;

/** The name of a statement text, once it has been executed often enough; undefined until then. */
export function createStatementNames(naming: StatementNaming = DEFAULT_NAMING) {
  const counts = new Map<string, number>();
  const names = new Map<string, string>();
  return (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= naming.maxNames) {
      return known;
    }
    const count = (counts.get(text) ?? 0) + 1;
    if (count < naming.nameAfter) {
      if (counts.size >= MAX_COUNTED) {
        counts.clear();
      }
      counts.set(text, count);
      return undefined;
    }
    counts.delete(text);
    const name = `outpost_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
    return name;
  };
}

type QueryConfig = { text?: unknown; name?: unknown; submit?: unknown };

/**
 * Every connection the pool opens names the hot statements it is given. Only plain query configs
 * with a text are named: strings (BEGIN, COMMIT), already named queries and submittables (the
 * exports' cursors) go through as they are.
 */
export function prepareHotStatements(pool: pg.Pool, nameOf = createStatementNames()): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = (config: unknown, ...rest: unknown[]) => {
      const c = config as QueryConfig | null;
      if (
        c &&
        typeof c === 'object' &&
        typeof c.text === 'string' &&
        c.name === undefined &&
        c.submit === undefined
      ) {
        const name = nameOf(c.text);
        if (name !== undefined) {
          return query({ ...c, name }, ...rest);
        }
      }
      return query(config, ...rest);
    };
    client.query = named as pg.PoolClient['query'];
  });
}
