import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createDemo } from '../modules/demo/demo';
import { DEMO } from '../modules/demo/demo.seed';
import { createThrowawayDatabase } from '../../test/harness';
import { openDatabase } from './client';
import { tenants } from './schema/index';

const silentLog = { info: () => undefined } as unknown as FastifyBaseLogger;

// Several instances started at the same moment on one empty PostgreSQL database: each applies the
// migrations and seeds the demo as main.ts does. This needs PostgreSQL even in the PGlite run (the
// race only exists on a shared server): TEST_DATABASE_URL, else the local one.
const baseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const journal = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8'),
) as { entries: { tag: string }[] };

describe('instances starting together on one empty PostgreSQL database', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) {
      await step();
    }
  });

  it('all come up healthy, with every migration applied once and the demo seeded once', async () => {
    const throwaway = await createThrowawayDatabase(baseUrl);
    cleanup.push(() => throwaway.drop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-migrate-'));
    cleanup.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));

    const startInstance = async () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        DATABASE_URL: throwaway.url,
        SESSION_SECRET: 'integration-tests-session-secret-0123456789',
        OUTPOST_DEMO_DEVICES: '0',
      });
      const database = await openDatabase({ databaseUrl: config.databaseUrl });
      const app = await buildApp({ config, database, logger: false });
      cleanup.push(async () => {
        await app.close();
        await database.close();
      });
      await createDemo(config, database, app.log).seed();
      return app.listen({ port: 0, host: '127.0.0.1' });
    };
    const urls = await Promise.all([startInstance(), startInstance()]);

    for (const url of urls) {
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
    }
    const client = new pg.Client({ connectionString: throwaway.url });
    await client.connect();
    try {
      const applied = await client.query<{ hash: string; times: number }>(
        'select hash, count(*)::int as times from drizzle.__drizzle_migrations group by hash',
      );
      expect(applied.rows).toHaveLength(journal.entries.length);
      expect(applied.rows.every((row) => row.times === 1)).toBe(true);
      const demoTenants = await client.query<{ count: number }>(
        'select count(*)::int as count from tenants where tenant_name = $1',
        [DEMO.tenantName],
      );
      expect(demoTenants.rows[0]?.count).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('seed the demo once when they reach the seed at the same moment', async () => {
    const throwaway = await createThrowawayDatabase(baseUrl);
    cleanup.push(() => throwaway.drop());
    const config = loadConfig({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-seed-')),
      DATABASE_URL: throwaway.url,
      SESSION_SECRET: 'integration-tests-session-secret-0123456789',
    });
    cleanup.push(() => fs.promises.rm(config.dataDir, { recursive: true, force: true }));
    const databases = [];
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ databaseUrl: throwaway.url });
      cleanup.push(() => database.close());
      databases.push(database);
    }

    await Promise.all(databases.map((database) => createDemo(config, database, silentLog).seed()));

    const demoTenants = await databases[0]!.db
      .select({ id: tenants.id })
      .from(tenants)
      .where(eq(tenants.tenantName, DEMO.tenantName));
    expect(demoTenants).toHaveLength(1);
  });
});
