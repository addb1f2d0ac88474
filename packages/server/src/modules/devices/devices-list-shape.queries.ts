import { and, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { DeviceListFilters } from '@outpost/contract/devices';
import {
  customFields,
  deviceFieldValues,
  deviceGroupMembers,
  deviceTags,
  devices,
} from '../../db/schema/index';
import { inScope, inScopePlaceholders, isSiteLimited, scopeValues } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import { escapeLike } from './device-software.queries';

// The WHERE of a device list (docs/product/devices.md#device-list, docs/product/device-sets.md#device-list-filters):
// its shape (which conditions it has), the values of its placeholders and the condition itself,
// for the prepared list statements (devices-list.queries.ts) and, with the values inline, for
// anyone who needs the same devices (deviceListCondition: the devices CSV export).

/**
 * What decides the text of a list statement: which conditions it has. The values (tenant, sites,
 * search term, filters, page window) are placeholders, so each shape is built once per database
 * handle (lib/db statementCache) and run unnamed (PostgreSQL still plans it with the values).
 */
export type ListShape = {
  isSiteLimited: boolean;
  /**
   * 'joined': the term against search_text, the three searched fields joined by newlines; 'fields':
   * each field on its own, for a term with a newline in it (which could otherwise match across
   * two fields)
   */
  search: 'none' | 'joined' | 'fields';
  /** 'connected': online or loggedin (the dashboard counts it the same way) */
  status: 'any' | 'connected' | 'one';
  hasOsType: boolean;
  hasSite: boolean;
  /** the set filters: no counter knows them, so a list with one counts its matches like a search */
  hasTag: boolean;
  hasGroup: boolean;
  field: 'none' | 'eq' | 'lt' | 'gt';
  /**
   * How a set filter is written: 'any', `devices.id = any(array(<the set>))`, reads the set first
   * and then its devices by primary key (a small set); 'in', `devices.id in (<the set>)`, lets a
   * page walk the list's index in order and probe the set, and a count join the set with the
   * devices the other filters leave (a large set)
   */
  setForm: 'any' | 'in';
  /**
   * How a search is written for a page: 'index', a condition the trigram index serves (its
   * matches found there, then sorted: a search of few matches); 'walk', the same test on an
   * expression no index serves, so that the page walks the list's (or the site's) index in order,
   * where search_text is included, and stops at the page's end (a search of many matches: the
   * index would hand over every match to be read and sorted)
   */
  searchForm: 'index' | 'walk';
  /**
   * A custom-field filter that the field's default satisfies: devices without a value of their
   * own match too (a union with a scan of the tenant's devices, so only then)
   */
  fieldDefault: boolean;
};
export type ListFilters = Pick<
  DeviceListFilters,
  'search' | 'status' | 'os_type' | 'site_id' | 'tag_id' | 'group_id' | 'field_key' | 'field_value'
> &
  Partial<Pick<DeviceListFilters, 'field_op'>> & {
    /** the field's default satisfies the field filter (resolveFieldDefault, devices-list-sets.queries.ts) */
    field_default_matches?: boolean;
  };

export const listShape = (ctx: Pick<Scope, 'siteAccessType'>, f: ListFilters): ListShape => ({
  isSiteLimited: isSiteLimited(ctx),
  search: !f.search ? 'none' : f.search.includes('\n') ? 'fields' : 'joined',
  status: !f.status ? 'any' : f.status === 'online' ? 'connected' : 'one',
  hasOsType: Boolean(f.os_type),
  hasSite: Boolean(f.site_id),
  hasTag: Boolean(f.tag_id),
  hasGroup: Boolean(f.group_id),
  field: f.field_key !== undefined && f.field_value !== undefined ? (f.field_op ?? 'eq') : 'none',
  setForm: 'any',
  searchForm: 'index',
  fieldDefault: f.field_key !== undefined && f.field_value !== undefined && f.field_default_matches === true,
});

/** A list with a tag, group or custom-field filter. */
export const hasSetFilter = (s: ListShape) => s.hasTag || s.hasGroup || s.field !== 'none';

/** A list counted row by row: a search or a set filter (no counter can know either). */
export const isCounted = (s: ListShape) =>
  s.search !== 'none' || s.hasTag || s.hasGroup || s.field !== 'none';

const SEARCH_KEYS = ['none', 'joined', 'fields'] as const;
const FIELD_KEYS = ['none', 'eq', 'lt', 'gt'] as const;
export const shapeKey = (s: ListShape) =>
  `${+s.isSiteLimited}${SEARCH_KEYS.indexOf(s.search)}${+s.hasOsType}${+s.hasSite}` +
  `${+s.hasTag}${+s.hasGroup}${FIELD_KEYS.indexOf(s.field)}${s.setForm === 'in' ? 1 : 0}${+s.fieldDefault}` +
  `${s.searchForm === 'walk' ? 1 : 0}${s.status}`;
export const shapeOfKey = (key: string): ListShape => ({
  isSiteLimited: key[0] === '1',
  search: SEARCH_KEYS[Number(key[1])]!,
  hasOsType: key[2] === '1',
  hasSite: key[3] === '1',
  hasTag: key[4] === '1',
  hasGroup: key[5] === '1',
  field: FIELD_KEYS[Number(key[6])]!,
  setForm: key[7] === '1' ? 'in' : 'any',
  fieldDefault: key[8] === '1',
  searchForm: key[9] === '1' ? 'walk' : 'index',
  status: key.slice(10) as ListShape['status'],
});

/** The placeholders' values of a list statement. */
export const listValues = (ctx: Scope, f: ListFilters) => ({
  ...scopeValues(ctx),
  term: f.search ? `%${escapeLike(f.search.toLowerCase())}%` : null,
  status: f.status ?? null,
  osType: f.os_type ?? null,
  siteId: f.site_id ?? null,
  tagId: f.tag_id ?? null,
  groupId: f.group_id ?? null,
  fieldKey: f.field_key ?? null,
  fieldValue: f.field_value ?? null,
  fieldNumber: f.field_value !== undefined && (f.field_op ?? 'eq') !== 'eq' ? Number(f.field_value) : null,
});
type ListValues = ReturnType<typeof listValues>;

/** A value of the condition: a placeholder (a prepared statement) or the value itself. */
export type ValueOf = (name: Exclude<keyof ListValues, 'siteIds'>) => SQL;
const placeholders: ValueOf = (name) => sql`${sql.placeholder(name)}`;

/** The filters of a list on a table with these columns (the devices, or their counters). */
export function filterConditions(
  table: { status: AnyColumn; osType: AnyColumn; siteId: AnyColumn },
  s: ListShape,
  v: ValueOf = placeholders,
): (SQL | undefined)[] {
  return [
    s.status === 'connected'
      ? inArray(table.status, ['online', 'loggedin'])
      : s.status === 'one'
        ? eq(table.status, v('status'))
        : undefined,
    s.hasOsType ? eq(table.osType, v('osType')) : undefined,
    s.hasSite ? eq(table.siteId, v('siteId')) : undefined,
  ];
}

/**
 * The set filters' member queries over their tables' tenant-first indexes: a tag's devices
 * (device_tags_tenant_tag_idx), a group's members (its primary key, group first), a field's
 * matching values (device_field_values_text_idx, or _number_idx for lt and gt).
 */
export function setQueries(s: ListShape, v: ValueOf = placeholders): SQL[] {
  const tenant = v('tenantId');
  const fieldId = sql`(select ${customFields.id} from ${customFields} where ${customFields.tenantId} = ${tenant} and ${customFields.key} = ${v('fieldKey')})`;
  const compare = (text: SQL, number: SQL) =>
    s.field === 'eq'
      ? sql`${text} = ${v('fieldValue')}`
      : sql`${number} ${s.field === 'lt' ? sql`<` : sql`>`} ${v('fieldNumber')}::float8`;
  const fieldMatch = compare(sql`${deviceFieldValues.valueText}`, sql`${deviceFieldValues.valueNumber}`);
  // a device without a value shows the field's default (as a group's filter reads it): it matches
  // when the default does (the shape says so; the condition is checked again in the statement)
  const defaultMatch = compare(
    sql`${customFields.defaultValue}`,
    sql`case when ${customFields.defaultValue} ~ '^-?[0-9]+(\.[0-9]+)?$' then ${customFields.defaultValue}::float8 end`,
  );
  const withDefault = sql`select d.id from ${devices} d where d.tenant_id = ${tenant}
    and exists (select from ${customFields} where ${customFields.tenantId} = ${tenant} and ${customFields.key} = ${v('fieldKey')} and ${defaultMatch})
    and not exists (select from ${deviceFieldValues} dv where dv.device_id = d.id and dv.field_id = ${fieldId})`;
  const sets: SQL[] = [];
  if (s.hasTag) {
    sets.push(
      sql`select ${deviceTags.deviceId} from ${deviceTags} where ${deviceTags.tenantId} = ${tenant} and ${deviceTags.tagId} = ${v('tagId')}`,
    );
  }
  if (s.hasGroup) {
    sets.push(
      sql`select ${deviceGroupMembers.deviceId} from ${deviceGroupMembers} where ${deviceGroupMembers.groupId} = ${v('groupId')} and ${deviceGroupMembers.tenantId} = ${tenant}`,
    );
  }
  if (s.field !== 'none') {
    sets.push(
      sql`select ${deviceFieldValues.deviceId} from ${deviceFieldValues} where ${deviceFieldValues.tenantId} = ${tenant} and ${deviceFieldValues.fieldId} = ${fieldId} and ${fieldMatch}${s.fieldDefault ? sql` union all ${withDefault}` : sql``}`,
    );
  }
  return sets;
}

/**
 * A list whose only condition besides the tenant is one set filter: its total is the set's size,
 * counted in the set's own index (every row of a set belongs to a device of its tenant).
 */
export const isSetAlone = (s: ListShape) =>
  !s.isSiteLimited &&
  s.search === 'none' &&
  s.status === 'any' &&
  !s.hasOsType &&
  !s.hasSite &&
  Number(s.hasTag) + Number(s.hasGroup) + Number(s.field !== 'none') === 1;

/**
 * The set filters as conditions on the devices, written as the shape's setForm says (ListShape):
 * PostgreSQL's estimates alone pick a full scan of the tenant's devices for a small set.
 */
function setConditions(s: ListShape, v: ValueOf): SQL[] {
  return setQueries(s, v).map((set) =>
    s.setForm === 'in' ? sql`${devices.id} in (${set})` : sql`${devices.id} = any(array(${set}))`,
  );
}

function searchCondition(s: ListShape, v: ValueOf): SQL | undefined {
  const term = v('term');
  return s.search === 'joined'
    ? s.searchForm === 'walk'
      ? sql`(${devices.searchText} || '') like ${term}`
      : sql`${devices.searchText} like ${term}`
    : s.search === 'fields'
      ? or(
          sql`lower(${devices.hostname}) like ${term}`,
          ilike(devices.ipAddress, term),
          sql`lower(${devices.serialNumber}) like ${term}`,
        )
      : undefined;
}

/** The devices a list shows: the caller's scope, the search and the filters (placeholders). */
export function listWhere(s: ListShape): SQL {
  return and(
    inScopePlaceholders(devices, s.isSiteLimited),
    searchCondition(s, placeholders),
    ...filterConditions(devices, s),
    ...setConditions(s, placeholders),
  )!;
}

/**
 * The same devices as the list with these filters shows the caller, as one condition on the
 * devices table with the values inline: for a statement of one's own over the same devices (the
 * devices CSV export). The page window and `fields` play no part.
 */
export function deviceListCondition(ctx: Scope, f: ListFilters): SQL {
  const s = listShape(ctx, f);
  const values = listValues(ctx, f);
  const inline: ValueOf = (name) => sql`${values[name]}`;
  return and(
    inScope(devices, ctx),
    searchCondition(s, inline),
    ...filterConditions(devices, s, inline),
    ...setConditions(s, inline),
  )!;
}
