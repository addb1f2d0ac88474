import { DEVICE_STATUSES, OS_TYPES, osTypeLabel } from '@outpost/contract/devices';
import type { GroupConditionField, GroupConditionInput, GroupFilterInput } from '@outpost/contract/groups';
import { GroupFilter } from '@outpost/contract/groups';
import { ARCHITECTURES } from '@outpost/contract/targets';

// The condition builder's vocabulary (docs/product/device-sets.md#groups "Conditions"), free of
// React: the fields in the order the builder offers them, each field's operators and a new
// condition's defaults, and a condition in words for the group page.

export type Option<V extends string = string> = { value: V; label: string };

export const FIELD_OPTIONS: Option<GroupConditionField>[] = [
  { value: 'software', label: 'Installed software' },
  { value: 'os_type', label: 'Operating system' },
  { value: 'os_version', label: 'OS version' },
  { value: 'architecture', label: 'Architecture' },
  { value: 'status', label: 'Status' },
  { value: 'site', label: 'Site' },
  { value: 'tag', label: 'Tag' },
  { value: 'custom_field', label: 'Custom field' },
  { value: 'last_seen', label: 'Last seen' },
  { value: 'agent_version', label: 'Agent version' },
];

export const OPS: Record<GroupConditionField, Option[]> = {
  status: [
    { value: 'is', label: 'is' },
    { value: 'is_not', label: 'is not' },
  ],
  os_type: [
    { value: 'is', label: 'is' },
    { value: 'is_not', label: 'is not' },
  ],
  architecture: [
    { value: 'is', label: 'is' },
    { value: 'is_not', label: 'is not' },
  ],
  os_version: [
    { value: 'contains', label: 'contains' },
    { value: 'equals', label: 'equals' },
    { value: 'starts_with', label: 'starts with' },
  ],
  site: [
    { value: 'in', label: 'is one of' },
    { value: 'not_in', label: 'is not one of' },
  ],
  tag: [
    { value: 'has', label: 'has tag' },
    { value: 'has_not', label: 'does not have tag' },
  ],
  custom_field: [
    { value: 'eq', label: 'equals' },
    { value: 'neq', label: 'does not equal' },
    { value: 'contains', label: 'contains' },
    { value: 'lt', label: 'is less than' },
    { value: 'gt', label: 'is greater than' },
    { value: 'empty', label: 'is empty' },
    { value: 'not_empty', label: 'is not empty' },
  ],
  software: [
    { value: 'installed', label: 'is installed' },
    { value: 'not_installed', label: 'is not installed' },
  ],
  last_seen: [
    { value: 'older_than', label: 'more than' },
    { value: 'within', label: 'within the last' },
  ],
  agent_version: [
    { value: 'eq', label: 'is' },
    { value: 'lt', label: 'is older than' },
    { value: 'gt', label: 'is newer than' },
  ],
};

export const VERSION_OP_OPTIONS: Option[] = [
  { value: '', label: 'any version' },
  { value: 'eq', label: 'version =' },
  { value: 'neq', label: 'version ≠' },
  { value: 'lt', label: 'version <' },
  { value: 'le', label: 'version ≤' },
  { value: 'gt', label: 'version >' },
  { value: 'ge', label: 'version ≥' },
];

export const STATUS_OPTIONS: Option[] = DEVICE_STATUSES.map((s) => ({
  value: s,
  label: s === 'loggedin' ? 'Logged in' : s[0]!.toUpperCase() + s.slice(1),
}));
export const OS_OPTIONS: Option[] = OS_TYPES.map((os) => ({ value: os, label: osTypeLabel(os) }));
export const ARCH_OPTIONS: Option[] = ARCHITECTURES.map((a) => ({ value: a, label: a }));

/** A new condition of a field, with its first operator and empty values. */
export function newCondition(field: GroupConditionField): GroupConditionInput {
  switch (field) {
    case 'status':
      return { field, op: 'is', value: 'online' };
    case 'os_type':
      return { field, op: 'is', value: 'windows' };
    case 'architecture':
      return { field, op: 'is', value: 'x64' };
    case 'os_version':
      return { field, op: 'contains', value: '' };
    case 'site':
      return { field, op: 'in', site_ids: [] };
    case 'tag':
      return { field, op: 'has', tag_id: 0 };
    case 'custom_field':
      return { field, key: '', op: 'eq', value: '' };
    case 'software':
      return { field, op: 'installed', name_match: 'contains', name: '' };
    case 'last_seen':
      return { field, op: 'older_than', amount: 7, unit: 'days' };
    case 'agent_version':
      return { field, op: 'lt', value: '' };
  }
}

export const emptyFilter = (): GroupFilterInput => ({ match: 'all', conditions: [newCondition('software')] });

/** The filter when every condition is complete and valid, else null (no preview is asked for). */
export function completeFilter(filter: GroupFilterInput): GroupFilterInput | null {
  return GroupFilter.safeParse(filter).success ? filter : null;
}

/** The first problem of a filter, in the contract's words; null when it is complete. */
export function filterProblem(filter: GroupFilterInput): string | null {
  const parsed = GroupFilter.safeParse(filter);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Complete every condition');
}

const label = (options: Option[], value: string) => options.find((o) => o.value === value)?.label ?? value;

/** A condition in words ("Installed software contains 7-Zip, version > 19.0"). */
export function describeCondition(
  c: GroupConditionInput,
  names: { site: (id: number) => string; tag: (id: number) => string },
): string {
  const field = label(FIELD_OPTIONS, c.field);
  const op = label(OPS[c.field], c.op);
  switch (c.field) {
    case 'status':
      return `${field} ${op} ${label(STATUS_OPTIONS, c.value)}`;
    case 'os_type':
      return `${field} ${op} ${label(OS_OPTIONS, c.value)}`;
    case 'architecture':
    case 'os_version':
    case 'agent_version':
      return `${field} ${op} ${c.value}`;
    case 'site':
      return `${field} ${op} ${c.site_ids.map(names.site).join(', ')}`;
    case 'tag':
      return `${op === 'has tag' ? 'Has tag' : 'Does not have tag'} ${names.tag(c.tag_id)}`;
    case 'custom_field':
      return `${c.key} ${op}${c.op === 'empty' || c.op === 'not_empty' ? '' : ` ${c.value ?? ''}`}`;
    case 'software': {
      const version = c.version_op ? `, ${label(VERSION_OP_OPTIONS, c.version_op)} ${c.version ?? ''}` : '';
      const name = c.name_match === 'equals' ? `“${c.name}”` : `containing “${c.name}”`;
      return `Software ${name} ${op}${version}`;
    }
    case 'last_seen':
      return `Last seen ${op} ${c.amount} ${c.unit}${c.op === 'older_than' ? ' ago' : ''}`;
  }
}
