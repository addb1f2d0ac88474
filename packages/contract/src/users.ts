import { z } from 'zod';
import { Role, SITE_ACCESS_TYPES } from './auth';
import { Id, IdParam, PageParam } from './input';
import { listOf } from './envelope';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './limits';
import { adminMessages as messages } from './messages';

// Users of one organization (docs/product/administration.md#users, #fields, #who-may-do-what, #calls, #admin-lists).
// A user row is a membership: the same person (e-mail) may be a member of several organizations,
// each with its own role and site access; signing in with that e-mail offers each of them.

export const NAME_MAX = 200;
export const EMAIL_MAX = 254;
export const MAX_USERS_PER_BULK = 1000;

/** On read a membership may carry 'none' (docs/product/administration.md#fields); the API never writes it. */
export const READ_SITE_ACCESS_TYPES = [...SITE_ACCESS_TYPES, 'none'] as const;
export const ReadSiteAccessType = z.enum(READ_SITE_ACCESS_TYPES);
export type ReadSiteAccessType = z.infer<typeof ReadSiteAccessType>;

/** docs/product/administration.md#fields. assigned_site_ids is a comma-separated string of site ids ('' for none). */
export const User = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  /** invited until the person first signs in with this e-mail verified; the e-mail is fixed then */
  status: z.enum(['invited', 'active']),
  site_access_type: ReadSiteAccessType,
  assigned_site_ids: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof User>;

// ---------- list (GET /customer/users) ----------

export const UserListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  /** matches name or e-mail, case-insensitive, anywhere in the text */
  search: z.string().trim().max(200).optional(),
  /** '' or absent: every role */
  role: z.union([Role, z.literal('')]).optional(),
});
export type UserListQuery = z.input<typeof UserListQuery>;
export type UserListFilters = z.output<typeof UserListQuery>;

export const UserListResponse = listOf(User);
export type UserListResponse = z.infer<typeof UserListResponse>;

// ---------- create and update ----------

const email = z
  .string({ error: messages.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, messages.emailRequired)
  .max(EMAIL_MAX, `Email must be ${EMAIL_MAX} characters or less`)
  .pipe(z.email(messages.emailInvalid));
const name = z
  .string()
  .trim()
  .max(NAME_MAX, `Name must be ${NAME_MAX} characters or less`)
  .nullable()
  .optional()
  // Omitted stays omitted (an update leaves the name alone); empty means none.
  .transform((v) => (v === undefined ? undefined : v || null));
const siteAccessType = z.enum(SITE_ACCESS_TYPES);
const siteIds = z.array(Id).max(1000, 'At most 1000 sites');

/**
 * POST /customer/users (docs/product/administration.md#calls: email, name, role, site_access_type, site_ids). The rule "specific
 * needs at least one site" is checked by the server after the types (userSiteAccessError), so
 * the messages come in the product's order: e-mail first, then sites.
 */
export const UserCreateBody = z.object({
  email,
  name,
  role: Role.default('user'),
  site_access_type: siteAccessType.default('all'),
  /** only kept for site_access_type 'specific'; each must be a site of the organization */
  site_ids: siteIds.default([]),
});
export type UserCreateBody = z.input<typeof UserCreateBody>;
export type UserCreateInput = z.output<typeof UserCreateBody>;

/** PUT /customer/users/{id}: the same fields; an omitted field stays as it is. */
export const UserUpdateBody = z.object({
  email: email.optional(),
  name,
  role: Role.optional(),
  site_access_type: siteAccessType.optional(),
  site_ids: siteIds.optional(),
});
export type UserUpdateBody = z.input<typeof UserUpdateBody>;
export type UserUpdateInput = z.output<typeof UserUpdateBody>;

/** docs/product/administration.md#sites: with specific site access at least one site must be chosen. */
export function userSiteAccessError(
  siteAccessType: string | undefined,
  siteIds: readonly unknown[] | undefined,
): string | null {
  return siteAccessType === 'specific' && (siteIds?.length ?? 0) === 0 ? messages.selectSiteOrAll : null;
}

export const UserIdParams = z.object({ id: IdParam });

// ---------- delete ----------

/** DELETE /customer/users with body {user_ids}. */
export const BulkDeleteUsersBody = z.object({
  user_ids: z.array(Id).min(1, messages.noSelection).max(MAX_USERS_PER_BULK),
});
export type BulkDeleteUsersBody = z.infer<typeof BulkDeleteUsersBody>;

/** Both deletes answer this; nothing is deleted unless every id is a user of the organization. */
export const DeleteUsersResponse = z.object({
  deleted: z.number().int(),
  user_ids: z.array(z.number().int()),
  message: z.string(),
});
export type DeleteUsersResponse = z.infer<typeof DeleteUsersResponse>;
