import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createStatementNames, prepareHotStatements } from './prepared-statements';

// docs/decisions/2026-11-28-prepared-statements.md: on PostgreSQL a text executed often is prepared
// on the pooled connection and answers as it did unnamed; strings and rare texts stay unnamed.

describe('hot statements prepared on PostgreSQL', () => {
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
  prepareHotStatements(pool, createStatementNames({ nameAfter: 3, maxNames: 5 }));
  afterAll(async () => {
    await pool.end();
  });

  const prepared = async () =>
    (
      await pool.query<{ name: string; statement: string }>(
        'select name, statement from pg_prepared_statements',
      )
    ).rows;

  it('prepares a text from its third execution on, with the same answers', async () => {
    const text = 'select $1::int + 1 as n';
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push((await pool.query<{ n: number }>({ text, values: [i] })).rows[0]!.n);
      if (i === 1) {
        expect((await prepared()).map((p) => p.statement)).not.toContain(text);
      }
    }
    expect(answers).toEqual([1, 2, 3, 4, 5, 6]);
    const rows = await prepared();
    expect(rows.map((p) => p.statement)).toContain(text);
    expect(rows.find((p) => p.statement === text)!.name).toMatch(/^outpost_/);
  });

  it('leaves strings, rare texts and named queries as they are', async () => {
    for (let i = 0; i < 4; i++) {
      await pool.query('select 41 + 1 as n');
    }
    await pool.query({ text: 'select $1::text as rare', values: ['once'] });
    await pool.query({ name: 'caller_named', text: 'select $1::text as named', values: ['x'] });
    const statements = (await prepared()).map((p) => p.statement);
    expect(statements).not.toContain('select 41 + 1 as n');
    expect(statements).not.toContain('select $1::text as rare');
    expect((await prepared()).map((p) => p.name)).toContain('caller_named');
  });
});
