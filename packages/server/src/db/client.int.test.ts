import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';

// The embedded database's memory settings (docs/decisions/2026-11-27-embedded-database.md): PGlite
// is opened with a 16 MB buffer cache rather than its 128 MB default, in a data directory and in
// memory alike, and it still answers the app's queries.
describe('the embedded database', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([['a data directory'], ['memory']])('opens in %s with a 16 MB buffer cache', async (where) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-pglite-'));
    dirs.push(dir);
    const database = await openDatabase(where === 'memory' ? {} : { pgliteDir: path.join(dir, 'pglite') });
    try {
      // PGlite's driver answers { rows } (the Db type leaves the result unknown)
      const first = async (query: ReturnType<typeof sql>) =>
        ((await database.db.execute(query)) as { rows: Record<string, unknown>[] }).rows[0];
      expect((await first(sql`show shared_buffers`))?.shared_buffers).toBe('16MB');
      expect((await first(sql`select count(*)::int as n from tenants`))?.n).toBe(0);
    } finally {
      await database.close();
    }
  });
});
