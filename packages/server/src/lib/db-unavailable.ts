// A query failed because the database could not be reached (PostgreSQL stopped, restarting, a
// connection cut), not because of the query: the server answers 503 DB_UNAVAILABLE instead of 500,
// and the pool opens new connections by itself once the database is back.

// SQLSTATE class 08 (connection exception) and the shutdown / start-up states of class 57P.
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]$)/;
const UNAVAILABLE_SYSCALL_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres's own messages for a connection that ended or never opened.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^Client was closed and is not queryable/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end on the pool/,
];

/** True when `err` (or an error it wraps, e.g. drizzle's DrizzleQueryError) is a lost database. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SYSCALL_CODES.has(code))
    ) {
      return true;
    }
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) {
      return true;
    }
    if (UNAVAILABLE_MESSAGES.some((m) => m.test(e instanceof Error ? e.message : ''))) {
      return true;
    }
  }
  return false;
}
