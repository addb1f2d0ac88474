import { z } from 'zod';
import { DeviceStatus, OsType } from './devices';
import { Id, IdParam, PageParam } from './input';
import { listOf } from './envelope';
import { ARCHITECTURES } from './targets';

// docs/product/device-sets.md#groups: static groups (chosen devices) and dynamic groups (a saved
// filter whose matches the server keeps as members). The filter's words and limits live here so
// the condition builder and the server agree on them.

export const GROUP_NAME_MAX = 120;
export const GROUP_DESCRIPTION_MAX = 1000;
export const MAX_GROUP_CONDITIONS = 20;
export const MAX_STATIC_MEMBERS_PER_CALL = 1000;
export const GROUP_PREVIEW_SAMPLE = 10;
const TEXT_MAX = 200;

export const groupMessages = {
  nameRequired: 'Group name is required',
  notFound: 'Group not found',
  deviceNotFound: 'One or more devices were not found',
  tenantWideAdminOnly: 'Only administrators of all sites may create or change groups for all sites',
  siteOutsideScope: 'You may only use your own sites',
  chooseSite: 'Choose the site the group belongs to',
  siteNotFound: 'Site not found',
  filterRequired: 'A dynamic group needs at least one condition',
  staticOnly: 'Devices are added to and removed from static groups only',
  deviceOutsideGroupSite: (site: string) => `The group belongs to ${site}: add only devices of that site`,
  versionFormat: 'Version must be numbers separated by dots, e.g. 1.10.2',
  tooManyConditions: `At most ${MAX_GROUP_CONDITIONS} conditions`,
  kindUnchangeable: "A group's kind cannot be changed",
} as const;

/** The deploy dialog's words for a group target (contract deployments.ts group_id). */
export const deploymentGroupMessages = {
  devicesOrGroup: 'Choose devices or a group, not both',
  groupTooLarge: (max: number) =>
    `The group has more than ${max} devices you may deploy to; deploy to a smaller group`,
  noOnlineMembers: 'No device of the group is online',
  noRunnableMembers: "No online device of the group runs this package's operating system and architecture",
  snapshotNote: 'Devices in the group now are deployed to; devices that join later are not.',
} as const;

/** Dotted numbers (1, 1.10, 10.0.19045.3803): what version comparisons accept as a value. */
export const DOTTED_VERSION = /^\d{1,18}(\.\d{1,18}){0,15}$/;
const dottedVersion = z.string().trim().regex(DOTTED_VERSION, groupMessages.versionFormat);
const text = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(TEXT_MAX, `${label} must be ${TEXT_MAX} characters or less`);

export const VERSION_OPS = ['eq', 'neq', 'lt', 'le', 'gt', 'ge'] as const;
export const VersionOp = z.enum(VERSION_OPS);
export type VersionOp = z.infer<typeof VersionOp>;
export const FIELD_OPS = ['eq', 'neq', 'contains', 'lt', 'gt', 'empty', 'not_empty'] as const;
export const AGE_UNITS = ['hours', 'days'] as const;

const StatusCondition = z.object({
  field: z.literal('status'),
  op: z.enum(['is', 'is_not']),
  value: DeviceStatus,
});
const OsTypeCondition = z.object({
  field: z.literal('os_type'),
  op: z.enum(['is', 'is_not']),
  value: OsType,
});
const OsVersionCondition = z.object({
  field: z.literal('os_version'),
  op: z.enum(['equals', 'contains', 'starts_with']),
  value: text('OS version'),
});
const ArchitectureCondition = z.object({
  field: z.literal('architecture'),
  op: z.enum(['is', 'is_not']),
  value: z.enum(ARCHITECTURES),
});
const SiteCondition = z.object({
  field: z.literal('site'),
  op: z.enum(['in', 'not_in']),
  site_ids: z.array(Id).min(1, 'Choose at least one site').max(100),
});
const TagCondition = z.object({
  field: z.literal('tag'),
  op: z.enum(['has', 'has_not']),
  tag_id: Id,
});
const CustomFieldCondition = z
  .object({
    field: z.literal('custom_field'),
    key: text('Field'),
    op: z.enum(FIELD_OPS),
    value: z.string().trim().max(TEXT_MAX).default(''),
  })
  .refine((c) => c.op === 'empty' || c.op === 'not_empty' || c.value !== '', {
    message: 'Value is required',
    path: ['value'],
  });
const SoftwareCondition = z
  .object({
    field: z.literal('software'),
    op: z.enum(['installed', 'not_installed']),
    name_match: z.enum(['contains', 'equals']),
    name: text('Software name'),
    /** absent: any version */
    version_op: VersionOp.optional(),
    version: z.string().trim().optional(),
  })
  .refine((c) => c.version_op === undefined || DOTTED_VERSION.test(c.version ?? ''), {
    message: groupMessages.versionFormat,
    path: ['version'],
  });
const LastSeenCondition = z.object({
  field: z.literal('last_seen'),
  op: z.enum(['older_than', 'within']),
  amount: z.number().int().min(1).max(100_000),
  unit: z.enum(AGE_UNITS),
});
const AgentVersionCondition = z.object({
  field: z.literal('agent_version'),
  op: z.enum(['eq', 'lt', 'gt']),
  value: dottedVersion,
});

export const GroupCondition = z.discriminatedUnion('field', [
  StatusCondition,
  OsTypeCondition,
  OsVersionCondition,
  ArchitectureCondition,
  SiteCondition,
  TagCondition,
  CustomFieldCondition,
  SoftwareCondition,
  LastSeenCondition,
  AgentVersionCondition,
]);
export type GroupCondition = z.output<typeof GroupCondition>;
export type GroupConditionInput = z.input<typeof GroupCondition>;
export type GroupConditionField = GroupCondition['field'];

export const GroupFilter = z.object({
  match: z.enum(['all', 'any']),
  conditions: z
    .array(GroupCondition)
    .min(1, groupMessages.filterRequired)
    .max(MAX_GROUP_CONDITIONS, groupMessages.tooManyConditions),
});
export type GroupFilter = z.output<typeof GroupFilter>;
export type GroupFilterInput = z.input<typeof GroupFilter>;

/** Conditions whose truth changes with time or presence alone: re-evaluated by the periodic sweep. */
export const TIME_DEPENDENT_FIELDS: readonly GroupConditionField[] = ['status', 'last_seen'];
export const isTimeDependent = (filter: GroupFilter) =>
  filter.conditions.some((c) => TIME_DEPENDENT_FIELDS.includes(c.field));

// ---------- groups ----------

export const GroupKind = z.enum(['static', 'dynamic']);
export type GroupKind = z.infer<typeof GroupKind>;

const groupName = z
  .string({ error: groupMessages.nameRequired })
  .trim()
  .min(1, groupMessages.nameRequired)
  .max(GROUP_NAME_MAX, `Group name must be ${GROUP_NAME_MAX} characters or less`);
const groupDescription = z
  .string()
  .trim()
  .max(GROUP_DESCRIPTION_MAX, `Description must be ${GROUP_DESCRIPTION_MAX} characters or less`)
  .nullable()
  .optional();

export const GroupCreateBody = z
  .object({
    name: groupName,
    description: groupDescription,
    kind: GroupKind,
    /** the owner site; null or absent = the whole tenant (administrators of all sites) */
    site_id: Id.nullable().optional(),
    filter: GroupFilter.nullable().optional(),
  })
  .refine((b) => b.kind === 'static' || b.filter != null, {
    message: groupMessages.filterRequired,
    path: ['filter'],
  });
export type GroupCreateBody = z.input<typeof GroupCreateBody>;
export type GroupCreateInput = z.output<typeof GroupCreateBody>;

export const GroupUpdateBody = z.object({
  name: groupName.optional(),
  description: groupDescription,
  site_id: Id.nullable().optional(),
  filter: GroupFilter.optional(),
});
export type GroupUpdateBody = z.input<typeof GroupUpdateBody>;
export type GroupUpdateInput = z.output<typeof GroupUpdateBody>;

export const GroupIdParams = z.object({ id: IdParam });

export const GroupListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(200).default(50),
  search: z.string().trim().max(TEXT_MAX).optional(),
  kind: GroupKind.optional(),
});
export type GroupListQuery = z.input<typeof GroupListQuery>;
export type GroupListFilters = z.output<typeof GroupListQuery>;

export const GroupSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  kind: GroupKind,
  site_id: z.number().int().nullable(),
  site_name: z.string().nullable(),
  /** members the caller may see (a site-limited caller: those of their sites) */
  member_count: z.number().int(),
  evaluated_at: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** whether the caller may change the group (owner-scope rules) */
  can_edit: z.boolean(),
});
export type GroupSummary = z.infer<typeof GroupSummary>;

export const GroupDetail = GroupSummary.extend({ filter: GroupFilter.nullable() });
export type GroupDetail = z.infer<typeof GroupDetail>;

export const GroupListResponse = listOf(GroupSummary);
export type GroupListResponse = z.infer<typeof GroupListResponse>;

// ---------- members and preview ----------

export const GroupDevice = z.object({
  id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  status: DeviceStatus,
  os_type: z.string().nullable(),
  os_version: z.string().nullable(),
  site_id: z.number().int().nullable(),
  site_name: z.string().nullable(),
  last_seen: z.string().nullable(),
});
export type GroupDevice = z.infer<typeof GroupDevice>;

export const GroupMember = GroupDevice.extend({ added_at: z.string() });
export type GroupMember = z.infer<typeof GroupMember>;

export const GroupMembersQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(200).default(25),
  search: z.string().trim().max(TEXT_MAX).optional(),
});
export type GroupMembersQuery = z.input<typeof GroupMembersQuery>;
export type GroupMembersFilters = z.output<typeof GroupMembersQuery>;
export const GroupMembersResponse = listOf(GroupMember);
export type GroupMembersResponse = z.infer<typeof GroupMembersResponse>;

export const GroupPreviewBody = z.object({
  filter: GroupFilter,
  /** the owner site the group would have: its members are limited to that site */
  site_id: Id.nullable().optional(),
});
export type GroupPreviewBody = z.input<typeof GroupPreviewBody>;
export const GroupPreviewResponse = z.object({
  count: z.number().int(),
  devices: z.array(GroupDevice),
});
export type GroupPreviewResponse = z.infer<typeof GroupPreviewResponse>;

export const GroupMembersChangeBody = z.object({
  device_ids: z
    .array(Id)
    .min(1, 'Choose at least one device')
    .max(MAX_STATIC_MEMBERS_PER_CALL, `At most ${MAX_STATIC_MEMBERS_PER_CALL} devices at once`),
});
export type GroupMembersChangeBody = z.input<typeof GroupMembersChangeBody>;
export const GroupMembersChangeResponse = z.object({
  changed: z.number().int(),
  member_count: z.number().int(),
});
export type GroupMembersChangeResponse = z.infer<typeof GroupMembersChangeResponse>;

// ---------- the version order, shared by the server's SQL and its tests ----------

/**
 * The comparable form of a version: its leading dotted numbers with trailing zero parts dropped
 * (1.2.0 = 1.2), or null when it does not start with a number. The server's SQL
 * (modules/groups/version-order.queries.ts) computes the same key.
 */
export function versionKey(version: string): bigint[] | null {
  const prefix = /^\d+(?:\.\d+)*/.exec(version)?.[0];
  if (prefix === undefined) {
    return null;
  }
  const parts = prefix.split('.').map((p) => BigInt(p));
  while (parts.length > 1 && parts[parts.length - 1] === 0n) {
    parts.pop();
  }
  return parts;
}

/** Dotted numeric order: -1, 0, 1, or null when either side has no version key. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 | null {
  const x = versionKey(a);
  const y = versionKey(b);
  if (!x || !y) {
    return null;
  }
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i]! !== y[i]!) {
      return x[i]! < y[i]! ? -1 : 1;
    }
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}
