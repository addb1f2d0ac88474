import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { deploymentPackages } from '../db/schema/index';
import {
  freePort,
  runServerToExit,
  sleep,
  startServerProcess,
  stopWithTest,
} from '../../test/support/faults';
import type { ServerProcess } from '../../test/support/faults';

// Faults: the embedded default (PGlite in DATA_DIR/pglite) survives a SIGKILL of the
// server in the middle of a stream of writes: after a restart on the same directory the server
// starts, and every write it acknowledged (2xx) is there, once.

type Envelope = { success: boolean; data: { token: string } };

describe('PGlite and a SIGKILL of the server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-pglite-'));
  let server: ServerProcess | null = null;
  afterAll(async () => {
    await stopWithTest(server);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write across a kill during writes', async () => {
    const port = await freePort();
    const env = { DATA_DIR: dir, OUTPOST_DEMO: '1', OUTPOST_DEMO_DEVICES: '0' };
    server = await startServerProcess(port, env);
    const signIn = await fetch(`${server.url}/api/customer/auth/dev`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@acme.example' }),
    });
    const { token } = ((await signIn.json()) as Envelope).data;

    const acknowledged: string[] = [];
    let writing = true;
    let n = 0;
    const writer = async () => {
      while (writing) {
        const name = `durable-${n++}`;
        const res = await fetch(`${server!.url}/api/customer/deployment-packages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name }),
        }).catch(() => null);
        if (res?.status === 200) {
          acknowledged.push(name);
        }
      }
    };
    const writers = [writer(), writer(), writer()];
    await sleep(1500);
    await server.kill();
    writing = false;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(0);

    // Restarted on the same directory, the server comes up (the stale lock is taken over) ...
    server = await startServerProcess(port, env);
    expect((await fetch(`${server.url}/api/customer/deployment-packages`)).status).toBe(401);
    await server.kill();
    server = null;
    // ... and every acknowledged write is in the database, once.
    const database = await openDatabase({ pgliteDir: path.join(dir, 'pglite') });
    try {
      const rows = await database.db.select({ name: deploymentPackages.name }).from(deploymentPackages);
      const names = rows.map((r) => r.name).filter((name) => name.startsWith('durable-'));
      expect(acknowledged.filter((name) => !names.includes(name))).toEqual([]);
      expect(new Set(names).size).toBe(names.length);
      console.log(
        `[faults] PGlite SIGKILL: ${acknowledged.length} writes acknowledged before the kill, all present (${names.length} rows, ${names.length - acknowledged.length} committed without an answer)`,
      );
    } finally {
      await database.close();
    }
  }, 90_000);

  // PGlite offers no guarantee against every damage (a disk that loses written data, a folder
  // restored in part): the server then refuses to start with a clear message, never starting an
  // empty database in its place.
  it.each([
    [
      'PG_VERSION removed',
      (d: string) => fs.rmSync(path.join(d, 'PG_VERSION')),
      'its PG_VERSION file is missing',
    ],
    [
      'pg_control overwritten',
      (d: string) => fs.writeFileSync(path.join(d, 'global', 'pg_control'), Buffer.alloc(8192, 7)),
      'it could not be opened',
    ],
  ])(
    'refuses to start on a damaged data directory (%s)',
    async (_name, damage, why) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-damaged-'));
      try {
        const pgliteDir = path.join(dataDir, 'pglite');
        const database = await openDatabase({ pgliteDir });
        await database.close();
        damage(pgliteDir);
        const before = fs.readdirSync(pgliteDir).sort();
        const { code, output } = await runServerToExit({ DATA_DIR: dataDir, OUTPOST_DEMO: '0' });
        expect(code).toBe(1);
        expect(output).toContain(`The embedded database in ${pgliteDir} is damaged: ${why}`);
        expect(output).toContain('Restore the folder from a backup, or move it aside');
        // Nothing was created in its place.
        expect(fs.readdirSync(pgliteDir).sort()).toEqual(before);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
