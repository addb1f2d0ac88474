import type pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';

// What every instance does once at start on a shared PostgreSQL (apply migrations, seed the demo)
// runs under one session-level advisory lock, so instances started together take turns: the
// first applies the migrations, the others find them applied. Drizzle's migrator takes no lock of
// its own. The key is a fixed hash, the same in every Outpost version.
const STARTUP_LOCK = `hashtext('outpost:startup')`;

export async function withStartupLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let isBroken = false;
  try {
    await client.query(`select pg_advisory_lock(${STARTUP_LOCK})`);
    try {
      return await work();
    } finally {
      await client.query(`select pg_advisory_unlock(${STARTUP_LOCK})`).catch(() => {
        // the connection is gone, and the session's lock with it
        isBroken = true;
      });
    }
  } finally {
    client.release(isBroken);
  }
}

export async function migratePostgres(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  await withStartupLock(pool, () => migrate(drizzle(pool), { migrationsFolder }));
}
