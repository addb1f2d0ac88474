import { z } from 'zod';
import { IdParam, PageParam } from './input';
import { listOf } from './envelope';
import { AUDIT_STATS_DEFAULT_DAYS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './limits';
import { adminMessages as messages } from './messages';

// Audit logs (docs/product/activity.md#audit-log, #fields audit list, #calls).
// Entries are written by the server in the same transaction as the change; the API
// only reads them (no edit or delete).

export const AUDIT_STATS_MAX_DAYS = 365;
export const AUDIT_ACTIVITY_DAYS_SHOWN = 7;
export const AUDIT_TOP_USERS_SHOWN = 5;

/** docs/product/activity.md#audit-log: the Action select (after All Actions). The filter matches the action exactly. */
export const AUDIT_ACTION_OPTIONS = [
  'Create User',
  'Update User',
  'Delete User',
  'Create Site',
  'Update Site',
  'Delete Site',
  'Create Device',
  'Update Device',
  'Delete Device',
] as const;

/** docs/product/activity.md#audit-log: the Resource Type select (after All Types). */
export const AUDIT_RESOURCE_TYPES = ['user', 'site', 'device', 'deployment', 'package'] as const;

/** docs/product/activity.md#audit-log: badge colour by action text (create green, delete red, update blue, login/auth purple). */
export type AuditActionKind = 'create' | 'delete' | 'update' | 'auth' | 'other';
export function auditActionKind(action: string): AuditActionKind {
  const text = action.toLowerCase();
  if (text.includes('create')) {
    return 'create';
  }
  if (text.includes('delete')) {
    return 'delete';
  }
  if (text.includes('update')) {
    return 'update';
  }
  if (text.includes('login') || text.includes('auth')) {
    return 'auth';
  }
  return 'other';
}

/** docs/product/activity.md#fields; old_values and new_values are JSON text. */
export const AuditLogEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  user_role: z.string().nullable(),
  resource_type: z.string().nullable(),
  resource_id: z.string().nullable(),
  created_at: z.string(),
  ip_address: z.string().nullable(),
  details: z.string().nullable(),
  old_values: z.string().nullable(),
  new_values: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

/**
 * A day 'YYYY-MM-DD' (a whole UTC day: start_date from its first moment, end_date through its
 * last) or an ISO 8601 date and time with a zone (that instant).
 */
const dateParam = z
  .string()
  .trim()
  .optional()
  .refine(
    (v) =>
      v === undefined ||
      v === '' ||
      (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))) ||
      z.iso.datetime({ offset: true }).safeParse(v).success,
    messages.dateInvalid,
  )
  .transform((v) => v || undefined);

// ---------- list (GET /customer/audit) ----------

export const AuditListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  /** matches action, user name or e-mail, resource type or id, and details, case-insensitive */
  search: z.string().trim().max(200).optional(),
  /** the exact action, case-insensitive ('Create User'); '' or absent: all */
  action: z.string().trim().max(100).optional(),
  /** the exact resource type ('user'); '' or absent: all */
  resource_type: z.string().trim().max(50).optional(),
  /** '' or absent: every user */
  user_id: z.union([IdParam, z.literal('').transform(() => undefined)]).optional(),
  start_date: dateParam,
  end_date: dateParam,
});
export type AuditListQuery = z.input<typeof AuditListQuery>;
export type AuditListFilters = z.output<typeof AuditListQuery>;

export const AuditListResponse = listOf(AuditLogEntry);
export type AuditListResponse = z.infer<typeof AuditListResponse>;

// ---------- actions (GET /customer/audit/actions) ----------

/** At most this many distinct actions are offered in the Action filter. */
export const AUDIT_ACTIONS_MAX = 500;

/**
 * Every distinct action the caller's log holds, alphabetically: the Action
 * filter offers them beside the product's nine (sign-in, deployments, packages, cleanup, …).
 */
export const AuditActionsResponse = z.array(z.string());
export type AuditActionsResponse = z.infer<typeof AuditActionsResponse>;

// ---------- stats (GET /customer/audit/stats) ----------

export const AuditStatsQuery = z.object({
  days: z.coerce.number().int().min(1).max(AUDIT_STATS_MAX_DAYS).default(AUDIT_STATS_DEFAULT_DAYS),
});
export type AuditStatsQuery = z.input<typeof AuditStatsQuery>;

/**
 * docs/product/activity.md#fields, over the last `period_days` days (now minus days × 24 h). create_actions
 * and update_actions count actions whose text contains "create" / "update" (the badge rule);
 * active_users counts distinct acting users (system entries without a user are not users).
 * activity_by_day has one entry per UTC day with activity, newest first; top_users the most
 * active users, most actions first (at most 10).
 */
export const AuditStats = z.object({
  summary: z.object({
    total_actions: z.number().int(),
    create_actions: z.number().int(),
    update_actions: z.number().int(),
    active_users: z.number().int(),
  }),
  period_days: z.number().int(),
  activity_by_day: z.array(
    z.object({ date: z.string(), activity_count: z.number().int(), unique_users: z.number().int() }),
  ),
  top_users: z.array(
    z.object({
      user_id: z.number().int().nullable(),
      user_name: z.string().nullable(),
      user_email: z.string().nullable(),
      user_role: z.string().nullable(),
      action_count: z.number().int(),
    }),
  ),
});
export type AuditStats = z.infer<typeof AuditStats>;
