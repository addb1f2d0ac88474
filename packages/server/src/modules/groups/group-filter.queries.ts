import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { GroupCondition, GroupFilter } from '@outpost/contract/groups';
import { devices } from '../../db/schema/index';
import { compareVersionSql } from './version-order.queries';

// A dynamic group's filter as one SQL condition over the devices table (docs/product/device-sets.md
// #groups "Conditions"). The statement that uses it selects FROM devices (no alias) with the
// tenant first; the conditions on tags, custom fields and software are EXISTS subqueries
// correlated on the device and its tenant, so they walk the per-device indexes.

const d = {
  id: sql`${devices.id}`,
  tenantId: sql`${devices.tenantId}`,
};

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
const prefixPattern = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

const isOrNot = (op: 'is' | 'is_not', test: SQL) => (op === 'is' ? test : sql`not coalesce(${test}, false)`);

function softwareSql(c: Extract<GroupCondition, { field: 'software' }>): SQL {
  const name =
    c.name_match === 'equals'
      ? sql`(lower(s.name) = ${c.name.toLowerCase()} or lower(s.display_name) = ${c.name.toLowerCase()})`
      : sql`(lower(s.name) like ${containsPattern(c.name)} or lower(s.display_name) like ${containsPattern(c.name)})`;
  const version =
    c.version_op !== undefined
      ? sql` and ${compareVersionSql(sql`s.version`, c.version_op, c.version ?? '')}`
      : sql``;
  const exists = sql`exists (select 1 from device_software s where s.tenant_id = ${d.tenantId} and s.device_id = ${d.id} and ${name}${version})`;
  return c.op === 'installed' ? exists : sql`not ${exists}`;
}

function customFieldSql(c: Extract<GroupCondition, { field: 'custom_field' }>): SQL {
  // the device's value, or the field's default while it has none (custom-fields.ts)
  const text = sql`coalesce(v.value_text, f.default_value)`;
  const number = sql`coalesce(v.value_number, case when f.default_value ~ '^-?[0-9]+(\\.[0-9]+)?$' then f.default_value::float8 end)`;
  const asNumber = Number.isFinite(Number(c.value)) && c.value !== '' ? Number(c.value) : null;
  const has = (test: SQL) =>
    sql`exists (select 1 from custom_fields f left join device_field_values v on v.tenant_id = f.tenant_id and v.field_id = f.id and v.device_id = ${d.id} where f.tenant_id = ${d.tenantId} and f.key = ${c.key} and ${test})`;
  const equals = sql`case when f.field_type = 'number' then ${number} = ${asNumber}::float8 else lower(${text}) = ${c.value.toLowerCase()} end`;
  const ordered = (op: '<' | '>') =>
    sql`case when f.field_type = 'number' then ${number} ${sql.raw(op)} ${asNumber}::float8 else ${text} ${sql.raw(op)} ${c.value} end`;
  const notEmpty = sql`coalesce(${text}, '') <> ''`;
  switch (c.op) {
    case 'eq':
      return has(equals);
    case 'neq':
      return sql`not ${has(equals)}`;
    case 'contains':
      return has(sql`lower(${text}) like ${containsPattern(c.value)}`);
    case 'lt':
      return has(ordered('<'));
    case 'gt':
      return has(ordered('>'));
    case 'not_empty':
      return has(notEmpty);
    case 'empty':
      return sql`not ${has(notEmpty)}`;
  }
}

function lastSeenSql(c: Extract<GroupCondition, { field: 'last_seen' }>): SQL {
  const interval = `${c.amount} ${c.unit}`;
  const seen = sql`${devices.lastSeen}`;
  // a device never seen counts as seen long ago
  return c.op === 'within'
    ? sql`coalesce(${seen} >= now() - ${interval}::interval, false)`
    : sql`coalesce(${seen} < now() - ${interval}::interval, true)`;
}

/** One condition as SQL over devices. */
export function conditionSql(c: GroupCondition): SQL {
  switch (c.field) {
    case 'status':
      return isOrNot(c.op, sql`${devices.status} = ${c.value}`);
    case 'os_type':
      return isOrNot(c.op, sql`${devices.osType} = ${c.value}`);
    case 'architecture':
      return isOrNot(c.op, sql`${devices.architecture} = ${c.value}`);
    case 'os_version': {
      const v = sql`lower(${devices.osVersion})`;
      const test =
        c.op === 'equals'
          ? sql`${v} = ${c.value.toLowerCase()}`
          : c.op === 'contains'
            ? sql`${v} like ${containsPattern(c.value)}`
            : sql`${v} like ${prefixPattern(c.value)}`;
      return sql`coalesce(${test}, false)`;
    }
    case 'site': {
      const test = sql`${devices.siteId} = any(${sql.param(c.site_ids)}::int[])`;
      return c.op === 'in' ? sql`coalesce(${test}, false)` : sql`not coalesce(${test}, false)`;
    }
    case 'tag': {
      const exists = sql`exists (select 1 from device_tags t where t.tenant_id = ${d.tenantId} and t.tag_id = ${c.tag_id} and t.device_id = ${d.id})`;
      return c.op === 'has' ? exists : sql`not ${exists}`;
    }
    case 'custom_field':
      return customFieldSql(c);
    case 'software':
      return softwareSql(c);
    case 'last_seen':
      return lastSeenSql(c);
    case 'agent_version':
      return compareVersionSql(sql`${devices.agentVersion}`, c.op, c.value);
  }
}

/** The whole filter: its conditions joined by and (match all) or or (match any). */
export function filterSql(filter: GroupFilter): SQL {
  const parts = filter.conditions.map((c) => sql`(${conditionSql(c)})`);
  return sql`(${sql.join(parts, sql.raw(filter.match === 'all' ? ' and ' : ' or '))})`;
}
