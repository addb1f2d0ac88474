import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { migratePostgres, withStartupLock } from './migrate';
import { prepareHotStatements } from './prepared-statements';
import { releaseOnFailedBegin } from './release-on-failed-begin';
import * as schema from './schema/index';
import { tightenTree } from '../lib/private-dir';

export type Schema = typeof schema;
// Both drivers produce a PgDatabase; the app only uses what they share.
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbKind = 'pglite' | 'postgres';

export type Database = {
  db: Db;
  kind: DbKind;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs start-up work (the demo seed) that several instances sharing the database must not do at
   * the same time: under PostgreSQL's advisory lock; PGlite has one process by construction.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
};

// Beside this file in the sources (src/db/migrations); the build copies them beside the compiled
// server (dist/migrations), where this code then runs from.
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// pg_trgm and btree_gin back the substring search indexes (migrations 0004 and 0009); PostgreSQL
// has them in contrib.
export const pgliteExtensions = { pg_trgm, btree_gin };

// PGlite's memory (docs/decisions/2026-11-27-embedded-database.md). Its shared_buffers default,
// 128 MB, lives in the WebAssembly heap and is touched whole at start: 16 MB holds the device
// list's pages at 10,000 devices, and a miss is a read from the operating system's cache.
export const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * V8 compiles PGlite's hot WebAssembly functions with its optimising compiler on one background
 * thread per core by default: each thread's allocator keeps the memory of that compilation (about
 * 60 MB more resident memory after start). One thread keeps one arena. The flag is read when a
 * compilation starts, so setting it before the first PGlite is enough.
 */
function limitWasmCompilationThreads() {
  v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
}

export type DatabaseOptions = {
  /** postgres://… uses PostgreSQL; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  pgliteDir?: string;
  /**
   * An in-memory PGlite starts from this dump of a data directory (`PGlite.dumpDataDir`) instead
   * of a new cluster: the tests start each server from one migrated copy (test/pglite-template.ts).
   */
  pgliteTemplate?: Blob;
  /**
   * PostgreSQL: the statements executed often are prepared on each pooled connection
   * (prepared-statements.ts); false for a pooler that cannot carry them. Default true.
   */
  preparedStatements?: boolean;
  /** Told when PostgreSQL ends an idle pooled connection (logged by the server). */
  onConnectionError?: (err: Error) => void;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A pooled connection the server ends (a PostgreSQL restart, an administrator's terminate, a
    // dropped database) is reported here: the pool discards it and the next query opens a new one.
    // Without a listener Node treats the event as an uncaught error and the process dies.
    pool.on('error', (err) => options.onConnectionError?.(err));
    // The same for a connection that is checked out (inside a transaction, between two of its
    // queries) when it ends: the pool does not listen then, and the error would end the process.
    // The transaction's next query fails (503 DB_UNAVAILABLE); the pool discards the connection.
    pool.on('connect', (client) => {
      client.on('error', (err) => options.onConnectionError?.(err));
    });
    if (options.preparedStatements !== false) {
      prepareHotStatements(pool);
    }
    releaseOnFailedBegin(pool);
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    await migratePostgres(pool, migrationsFolder);
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
      exclusive: (work) => withStartupLock(pool, work),
    };
  }
  const releaseLock = options.pgliteDir ? lockDataDir(options.pgliteDir) : () => undefined;
  const extensions = pgliteExtensions;
  let client: PGlite;
  try {
    if (options.pgliteDir) {
      refuseDamagedDir(options.pgliteDir);
    }
    limitWasmCompilationThreads();
    const startParams = pgliteStartParams;
    client = options.pgliteDir
      ? new PGlite(options.pgliteDir, { extensions, startParams })
      : new PGlite({ extensions, loadDataDir: options.pgliteTemplate, startParams });
    await client.waitReady;
  } catch (err) {
    releaseLock();
    if (options.pgliteDir && !(err instanceof DatabaseDamagedError)) {
      throw new DatabaseDamagedError(
        damagedMessage(
          options.pgliteDir,
          `it could not be opened (${err instanceof Error ? err.message : String(err)})`,
        ),
      );
    }
    throw err;
  }
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  if (options.pgliteDir) {
    tightenTree(options.pgliteDir); // PGlite chmods the files it creates 0666: see lib/private-dir.ts
  }
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
      releaseLock();
    },
    exclusive: (work) => work(),
  };
}

export class DatabaseInUseError extends Error {}

/** The PGlite data directory exists but cannot be the database it was: the server does not start. */
export class DatabaseDamagedError extends Error {}

const damagedMessage = (dir: string, why: string) =>
  `The embedded database in ${dir} is damaged: ${why}. Outpost does not start rather than start ` +
  `with an empty database. Restore the folder from a backup, or move it aside to start with a new, ` +
  `empty database.`;

/**
 * PGlite creates a new, empty cluster in a directory without PG_VERSION, even over the remains of
 * an old one (a half-restored backup, files lost): a directory with files but no PG_VERSION is
 * refused instead.
 */
function refuseDamagedDir(dir: string) {
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (entries.length > 0 && !entries.includes('PG_VERSION')) {
    throw new DatabaseDamagedError(damagedMessage(dir, 'its PG_VERSION file is missing'));
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * PGlite is one process's database: a second process opening the same directory would corrupt
 * it. A pid file guards the directory; a stale one (its process gone) is taken over.
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, '..', `${path.basename(dir)}.lock`);
  const owner = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim()) : null;
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new DatabaseInUseError(
      `The embedded database in ${dir} is in use by process ${owner}. Stop the server first, or use DATABASE_URL with PostgreSQL.`,
    );
  }
  fs.writeFileSync(file, String(process.pid));
  return () => fs.rmSync(file, { force: true });
}
