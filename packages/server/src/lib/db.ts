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
