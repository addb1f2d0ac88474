import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { VERSION_OPS, compareVersions } from '@outpost/contract/groups';
import type { VersionOp } from '@outpost/contract/groups';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { rowsOf } from '../../lib/db';
import { compareVersionSql } from './version-order.queries';

// The SQL version order (version-order.queries.ts) against the contract's TypeScript reference
// (compareVersions): the same answer for every operator, on PGlite and PostgreSQL.

const holds = (op: VersionOp, c: -1 | 0 | 1 | null): boolean => {
  if (c === null) {
    return false;
  }
  return { eq: c === 0, neq: c !== 0, lt: c < 0, le: c <= 0, gt: c > 0, ge: c >= 0 }[op];
};

const part = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 99_999_999_999 }));
const dotted = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));
/** versions as platforms report them: dotted numbers, with zeros, suffixes, or none at all */
const reported = fc.oneof(
  dotted,
  fc.tuple(dotted, fc.constantFrom('', '.0', '.0.0', '-beta', ' (x64)', 'a', '.')).map(([v, s]) => v + s),
  fc.constantFrom('', 'unknown', 'v1.2', '1.0', '1.00.0'),
);

describe('dotted version comparison in SQL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function sqlAnswers(version: string, value: string): Promise<boolean[]> {
    const columns = VERSION_OPS.map(
      (op) => sql`${compareVersionSql(sql`${version}::text`, op, value)} as ${sql.identifier(op)}`,
    );
    const result = await server.database.db.execute(sql`select ${sql.join(columns, sql`, `)}`);
    const row = rowsOf<Record<VersionOp, boolean>>(result)[0]!;
    return VERSION_OPS.map((op) => row[op]);
  }

  it('orders 1.10 after 1.9 and treats trailing zero parts as equal', async () => {
    expect(await sqlAnswers('1.10', '1.9')).toEqual([false, true, false, false, true, true]);
    expect(await sqlAnswers('1.2.0', '1.2')).toEqual([true, false, false, true, false, true]);
    expect(await sqlAnswers('10.0.19045.3803', '10.0.19045.12')).toEqual([
      false,
      true,
      false,
      false,
      true,
      true,
    ]);
    expect(await sqlAnswers('', '1')).toEqual([false, false, false, false, false, false]);
  });

  it('agrees with the TypeScript reference for any versions', async () => {
    await fc.assert(
      fc.asyncProperty(reported, dotted, async (version, value) => {
        const expected = VERSION_OPS.map((op) => holds(op, compareVersions(version, value)));
        expect(await sqlAnswers(version, value)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
