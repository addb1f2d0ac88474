import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { releaseOnFailedBegin } from './release-on-failed-begin';

// The real pg-pool and drizzle's real transaction(), over a client whose connection "died": BEGIN
// fails the way it does on a connection PostgreSQL ended during a restart.
class DeadOnBeginClient extends EventEmitter {
  static sent: string[] = [];
  _queryable = true;
  _ending = false;
  connect(callback: (err?: Error) => void) {
    callback();
  }
  query(config: string | { text: string }, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : config.text;
    DeadOnBeginClient.sent.push(text);
    const callback = rest.find((r) => typeof r === 'function') as
      ((err: Error | null, res?: unknown) => void) | undefined;
    const fails = /^begin/i.test(text);
    const result = { rows: [], rowCount: 0, fields: [], command: 'SELECT' };
    if (callback) {
      callback(fails ? new Error('Connection terminated unexpectedly') : null, result);
      return undefined;
    }
    return fails ? Promise.reject(new Error('Connection terminated unexpectedly')) : Promise.resolve(result);
  }
  end(callback?: () => void) {
    this._ending = true;
    callback?.();
    return Promise.resolve();
  }
}

function pool(guarded: boolean) {
  const p = new pg.Pool({ Client: DeadOnBeginClient as unknown as typeof pg.Client, max: 2 });
  if (guarded) {
    releaseOnFailedBegin(p);
  }
  return p;
}

const endsWithin = (p: pg.Pool, ms: number) =>
  Promise.race([p.end().then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

describe('releaseOnFailedBegin', () => {
  it('gives the client of a transaction whose BEGIN failed back to the pool, destroyed', async () => {
    const p = pool(true);
    const db = drizzle(p);
    await expect(db.transaction(() => Promise.resolve('never'))).rejects.toThrow();
    await expect(db.transaction(() => Promise.resolve('never'))).rejects.toThrow();
    // both clients were destroyed, none is left checked out, and the pool can close
    expect(p.totalCount).toBe(0);
    expect(await endsWithin(p, 1000)).toBe(true);
  });

  it('is what frees the client: without it drizzle leaves it checked out and the pool cannot close', async () => {
    const p = pool(false);
    await expect(drizzle(p).transaction(() => Promise.resolve('never'))).rejects.toThrow();
    expect(p.totalCount - p.idleCount).toBe(1);
    expect(await endsWithin(p, 200)).toBe(false);
  });

  it('leaves other queries, and pool.query with its callbacks, as they were', async () => {
    const p = pool(true);
    const db = drizzle(p);
    DeadOnBeginClient.sent = [];
    await db.execute(sql`select 1`);
    await p.query('select 2');
    expect(DeadOnBeginClient.sent).toEqual(['select 1', 'select 2']);
    expect(p.idleCount).toBe(1);
    expect(await endsWithin(p, 1000)).toBe(true);
  });
});
