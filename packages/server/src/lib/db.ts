import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

/** A database handle or an open transaction: queries take either, services decide which. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
export type Reader = Pick<Db, 'select'>;

/**
 * The first row of a result that must have one (`insert … returning`, an update of a row the
 * caller has just locked). An empty result is a bug, not a user error, so it throws with the
 * statement's name instead of letting `undefined` travel on.
 */
export function firstOrThrow<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) {
    throw new Error(`${what} returned no row`);
  }
  return row;
}

/**
 * One typed array parameter holding a column's values, for batch statements (`unnest(…)`,
 * `= any(…)`): a batch of a thousand rows is a handful of parameters, cheap to build and to parse,
 * where one parameter per value costs drizzle and PostgreSQL time per value.
 */
export const arrayParam = <T>(values: readonly T[], type: string): SQL =>
  sql`${sql.param(values)}::${sql.raw(type)}[]`;

/** The rows of a raw statement (`db.execute`): PGlite and node-postgres both answer with { rows }. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Statements built once per database handle and key, run many times with their values as
 * placeholders (`sql.placeholder`). drizzle builds a query's text anew on every call (its `is()`
 * checks walk prototype chains): for a cheap request that was its largest single item of CPU.
 * `key` names the statement's shape (which conditions it has); `build` makes it for that key.
 */
export function statementCache<S>(build: (db: Reader, key: string) => S): (db: Reader, key: string) => S {
  const byHandle = new WeakMap<Reader, Map<string, S>>();
  return (db, key) => {
    let statements = byHandle.get(db);
    if (!statements) {
      statements = new Map();
      byHandle.set(db, statements);
    }
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = build(db, key);
      statements.set(key, statement);
    }
    return statement;
  };
}

/**
 * The name of a prepared statement that PostgreSQL should plan with each execution's values: the
 * unnamed statement, parsed again every time (as an ordinary query is). A named statement is
 * planned generically after five executions, blind to the tenant's size, a search pattern or an
 * offset; the device list's plans depend on them. Only drizzle's building is saved.
 */
export const UNNAMED_STATEMENT = '';
