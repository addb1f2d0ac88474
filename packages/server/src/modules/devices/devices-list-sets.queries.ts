import { and, eq, sql } from 'drizzle-orm';
import { customFields } from '../../db/schema/index';
import { statementCache, UNNAMED_STATEMENT } from '../../lib/db';
import type { Reader } from '../../lib/db';
import { setQueries, shapeOfKey } from './devices-list-shape.queries';
import type { ListFilters } from './devices-list-shape.queries';

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

const NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * The filters with `field_default_matches` set: whether the custom field's default satisfies the
 * field filter, so that devices without a value of their own match as the list shows them (a
 * group's filter reads values the same way). Nothing to do without a field filter.
 */
export async function resolveFieldDefault<F extends ListFilters>(
  db: Reader,
  tenantId: number,
  f: F,
): Promise<F> {
  if (f.field_key === undefined || f.field_value === undefined || f.field_default_matches !== undefined) {
    return f;
  }
  const [field] = await db
    .select({ value: customFields.defaultValue })
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenantId), eq(customFields.key, f.field_key)))
    .limit(1);
  const value = field?.value ?? null;
  const op = f.field_op ?? 'eq';
  const matches =
    value === null
      ? false
      : op === 'eq'
        ? value === f.field_value
        : NUMBER.test(value) &&
          (op === 'lt' ? Number(value) < Number(f.field_value) : Number(value) > Number(f.field_value));
  return { ...f, field_default_matches: matches };
}
