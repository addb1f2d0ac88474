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
