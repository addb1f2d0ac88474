import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { VersionOp } from '@outpost/contract/groups';

// Dotted numeric version order in SQL (docs/product/device-sets.md#groups "Versions"): the leading
// dotted numbers of a version, trailing zero parts dropped, as numeric[]; arrays compare element
// by element, a shorter prefix first, so 1.10 > 1.9 and 1.2 = 1.2.0. A version that does not
// start with a number has no key (null) and matches no comparison. The contract's versionKey is
// the same rule in TypeScript; version-order.int.test.ts checks them against each other.

/** The comparable key of a version expression (text). */
export function versionKeySql(version: SQL): SQL {
  return sql`string_to_array(regexp_replace(substring(${version} from '^[0-9]+(?:\\.[0-9]+)*'), '(\\.0+)+$', ''), '.')::numeric[]`;
}

const OPERATORS: Record<VersionOp, string> = {
  eq: '=',
  neq: '<>',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
};

/** `version <op> value` in dotted numeric order; false when the version has no key. */
export function compareVersionSql(version: SQL, op: VersionOp, value: string): SQL {
  return sql`coalesce(${versionKeySql(version)} ${sql.raw(OPERATORS[op])} ${versionKeySql(sql`${value}::text`)}, false)`;
}
