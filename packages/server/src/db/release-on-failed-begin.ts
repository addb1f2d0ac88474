import type pg from 'pg';

type Query = (...args: unknown[]) => unknown;

const guarded = new WeakSet<pg.PoolClient>();

const isBegin = (config: unknown): boolean => {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' && /^\s*begin\b/i.test(text);
};

/**
 * Drizzle's node-postgres `transaction()` (0.45) checks a client out of the pool and runs BEGIN
 * before the try/finally that releases it (upstream: drizzle-team/drizzle-orm#6241, open). A BEGIN
 * that fails — typically on a connection PostgreSQL ended during a restart that the pool had not
 * noticed yet — leaves that client checked out for good: the pool shrinks by one, and `pool.end()`
 * never returns. This makes every client the pool hands out release itself, to be destroyed, when a
 * promise-form BEGIN on it fails. Only a transaction sends one that way (`pool.query` uses the
 * callback form and releases the client itself). Once released here, a later `release()` (a
 * drizzle that fixed the bug) is a no-op instead of pg-pool's double-release error.
 */
export function releaseOnFailedBegin(pool: pg.Pool): void {
  pool.on('acquire', (client) => {
    if (guarded.has(client)) {
      return;
    }
    guarded.add(client);
    const query = client.query.bind(client) as Query;
    const guardedQuery: Query = (...args) => {
      if (typeof args.at(-1) === 'function' || !isBegin(args[0])) {
        return query(...args);
      }
      return (query(...args) as Promise<unknown>).catch((err: unknown) => {
        client.release(err instanceof Error ? err : true);
        client.release = () => undefined;
        throw err;
      });
    };
    client.query = guardedQuery as pg.PoolClient['query'];
  });
}
