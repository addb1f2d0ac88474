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

/** A prepared statement as `.prepare()` returns it, whatever its rows. */
type Prepared = { execute(values?: Record<string, unknown>): Promise<unknown> };

/**
 * A prepared select whose result is built by `map` from the driver's rows as they arrive (arrays,
 * in the select's column order, timestamps as PostgreSQL's text), instead of drizzle's mapping:
 * that walks every column of every row through `is()` checks, a path iterator and, with a join,
 * the table names, then parses each timestamp into a Date the API formats back into a string
 * (about a tenth of a device list request's CPU). For the hot statements only; `map` must give
 * what drizzle's mapping would (the module's integration tests run it on both drivers).
 * Both drivers' prepared queries run a `customResultMapper` (drizzle's relational queries use it)
 * over the array rows; a drizzle without one fails here at the statement's first build, not silently.
 */
export function withRowMapper<T>(
  prepared: Prepared,
  map: (rows: unknown[][]) => T,
): { execute(values?: Record<string, unknown>): Promise<T> } {
  if (!('customResultMapper' in prepared)) {
    throw new Error('this drizzle has no customResultMapper on its prepared queries');
  }
  (prepared as { customResultMapper?: unknown }).customResultMapper = map;
  return prepared as { execute(values?: Record<string, unknown>): Promise<T> };
}

const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as PostgreSQL sends it in text ('2026-11-27 18:00:00.123456+00' in a UTC session)
 * in the form Date.toISOString writes ('2026-11-27T18:00:00.123Z': milliseconds, the rest cut
 * off, as a Date keeps them); any other form (another time zone, a year past 9999, a Date from a
 * driver that parses them) through Date, as drizzle's mapping does.
 */
export function isoOfTimestamp(value: unknown): string {
  const m = typeof value === 'string' ? UTC_TIMESTAMP.exec(value) : null;
  if (m === null) {
    return (value instanceof Date ? value : new Date(value as string)).toISOString();
  }
  const fraction = m[3] === undefined ? '000' : m[3].length >= 3 ? m[3].slice(0, 3) : m[3].padEnd(3, '0');
  return `${m[1]}T${m[2]}.${fraction}Z`;
}
