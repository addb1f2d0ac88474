import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { deploymentPackages } from '../db/schema/index';
import { freePort, sleep, startServerProcess, stopWithTest } from './support';
import type { ServerProcess } from './support';

// Issue 14, faults: the embedded default (PGlite in DATA_DIR/pglite) survives a SIGKILL of the
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
});
