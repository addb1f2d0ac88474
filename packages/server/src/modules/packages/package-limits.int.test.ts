import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MAX_STEPS_PER_PACKAGE } from '@outpost/contract/limits';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail, PackageExport } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';

// SECURITY.md R2-6: one request cannot make the server do unbounded work on a package. A package
// has at most MAX_STEPS_PER_PACKAGE steps (the contract refuses more with its message), and an
// import or a copy writes all its steps in one statement.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const API = '/api/customer/deployment-packages';

const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    step_name: `Step ${i + 1}`,
    step_type: 'CMD' as const,
    step_details: { command: `echo ${i + 1}` },
  }));

const exportDoc = (n: number): PackageExport => ({
  format: 'outpost.package',
  version: 1,
  package: { name: `Big ${n}` },
  steps: steps(n),
});

describe('package size limits (R2-6)', () => {
  let server: TestServer;
  let token: string;

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  /**
   * Counts the INSERT statements on package_steps while `work` runs, with a statement-level
   * trigger: the count of statements, whatever the number of rows each writes.
   */
  async function stepInsertStatements(work: () => Promise<void>): Promise<number> {
    const db = server.database.db;
    await db.execute(sql`create table if not exists step_insert_statements (n int not null)`);
    await db.execute(sql`delete from step_insert_statements`);
    await db.execute(sql`create or replace function count_step_insert() returns trigger language plpgsql as $$
      begin insert into step_insert_statements values (1); return null; end $$`);
    await db.execute(sql`create trigger count_step_insert after insert on package_steps
      for each statement execute function count_step_insert()`);
    try {
      await work();
    } finally {
      await db.execute(sql`drop trigger count_step_insert on package_steps`);
    }
    const result = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from step_insert_statements`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as {
      n: number;
    }[];
    return rows[0]?.n ?? -1;
  }

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => server?.close());

  it(`refuses an import of ${MAX_STEPS_PER_PACKAGE + 1} steps with the contract's message, and stores nothing`, async () => {
    const before = (await call<{ pagination: { total: number } }>('GET', `${API}?limit=1`)).body.data
      .pagination.total;
    for (const n of [MAX_STEPS_PER_PACKAGE + 1, 3000]) {
      const res = await call('POST', `${API}/import`, exportDoc(n));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(packageMessages.tooManySteps(MAX_STEPS_PER_PACKAGE));
    }
    const after = (await call<{ pagination: { total: number } }>('GET', `${API}?limit=1`)).body.data
      .pagination.total;
    expect(after).toBe(before);
  });

  it(`imports ${MAX_STEPS_PER_PACKAGE} steps with one insert statement, and copies them with one`, async () => {
    let imported: PackageDetail | undefined;
    const importStatements = await stepInsertStatements(async () => {
      const res = await call<PackageDetail>('POST', `${API}/import`, exportDoc(MAX_STEPS_PER_PACKAGE));
      expect(res.status).toBe(200);
      imported = res.body.data;
    });
    expect(importStatements).toBe(1);
    expect(imported!.step_count).toBe(MAX_STEPS_PER_PACKAGE);
    expect(imported!.steps.map((s) => s.step_order)).toEqual(
      Array.from({ length: MAX_STEPS_PER_PACKAGE }, (_, i) => i + 1),
    );
    expect(imported!.steps.at(-1)).toMatchObject({
      step_name: `Step ${MAX_STEPS_PER_PACKAGE}`,
      step_details: { command: `echo ${MAX_STEPS_PER_PACKAGE}` },
    });

    const copyStatements = await stepInsertStatements(async () => {
      const copy = await call<PackageDetail>('POST', `${API}/${imported!.id}/duplicate`, {});
      expect(copy.body.data.step_count).toBe(MAX_STEPS_PER_PACKAGE);
    });
    expect(copyStatements).toBe(1);
  });

  it('refuses a step beyond the limit, and a reorder body longer than the limit', async () => {
    const full = await call<PackageDetail>('POST', `${API}/import`, exportDoc(MAX_STEPS_PER_PACKAGE));
    const id = full.body.data.id;
    const extra = await call('POST', `${API}/${id}/steps`, {
      step_name: 'One more',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'echo more' }),
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe(packageMessages.stepLimitReached(MAX_STEPS_PER_PACKAGE));
    expect((await call<PackageDetail>('GET', `${API}/${id}`)).body.data.step_count).toBe(
      MAX_STEPS_PER_PACKAGE,
    );

    const tooLong = await call('PUT', `${API}/${id}/steps/reorder`, {
      stepOrders: Array.from({ length: MAX_STEPS_PER_PACKAGE + 1 }, (_, i) => ({
        id: i + 1,
        step_order: i + 1,
      })),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe(packageMessages.tooManySteps(MAX_STEPS_PER_PACKAGE));
  });

  it('reorders every step of a full package in one request, numbered from 1', async () => {
    const full = await call<PackageDetail>('POST', `${API}/import`, exportDoc(MAX_STEPS_PER_PACKAGE));
    const reversed = [...full.body.data.steps].reverse();
    const res = await call<{ id: number; step_order: number }[]>(
      'PUT',
      `${API}/${full.body.data.id}/steps/reorder`,
      { stepOrders: reversed.map((s, i) => ({ id: s.id, step_order: i + 1 })) },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((s) => s.id)).toEqual(reversed.map((s) => s.id));
    expect(res.body.data.map((s) => s.step_order)).toEqual(reversed.map((_, i) => i + 1));
  });
});
