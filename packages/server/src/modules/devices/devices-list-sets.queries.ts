import { sql } from 'drizzle-orm';
import { statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Reader } from '../../lib/db';
import { setQueries, shapeOfKey } from './devices-list-shape.queries';

// The size of a device list's set filters (docs/product/device-sets.md#device-list-filters),
// counted in the sets' own indexes: it decides how the list reads the set (ListShape.setForm),
// and for a list with nothing but one set filter it is the total.

const setSizeStatement = statementCache((db, key) => {
  const counts = setQueries(shapeOfKey(key)).map((set) => sql`(select count(*) from (${set}) as members)`);
  return db
    .select({ n: sql<number>`least(${sql.join(counts, sql`, `)})::int` })
    .from(sql`(values (1)) as one (x)`)
    .prepare(UNNAMED_STATEMENT);
});

/** The smallest of the list's set filters, in members (the statement key is the list's shape key). */
export async function smallestSetSize(
  db: Reader,
  key: string,
  values: Record<string, unknown>,
): Promise<number> {
  const [row] = await setSizeStatement(db, key).execute(values);
  return Number(row?.n ?? 0);
}
