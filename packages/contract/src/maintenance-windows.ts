import { z } from 'zod';
import { Id, IdParam } from './input';

// Maintenance windows (docs/product/rollouts.md#maintenance-windows): recurring weekly windows of
// a site or a group, in the site's time zone, inside which "run only inside maintenance windows"
// deployments run.

export const WINDOW_NAME_MAX = 100;
/** 0 = Sunday … 6 = Saturday (as Date#getDay) */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export const MIN_WINDOW_MINUTES = 15;
export const MAX_WINDOW_MINUTES = 24 * 60;

export const WindowStartTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Start time must be HH:MM (24-hour)');

export const MaintenanceWindowBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Name is required')
      .max(WINDOW_NAME_MAX, `Name must be ${WINDOW_NAME_MAX} characters or less`),
    /** exactly one of site_id and group_id */
    site_id: Id.nullable().optional(),
    group_id: Id.nullable().optional(),
    days: z
      .array(z.number().int().min(0).max(6))
      .min(1, 'Choose at least one day')
      .max(7)
      .transform((d) => [...new Set(d)].sort((a, b) => a - b)),
    start_time: WindowStartTime,
    duration_minutes: z
      .number()
      .int()
      .min(MIN_WINDOW_MINUTES, `A window lasts at least ${MIN_WINDOW_MINUTES} minutes`)
      .max(MAX_WINDOW_MINUTES, `A window lasts at most ${MAX_WINDOW_MINUTES / 60} hours`),
    enabled: z.boolean().default(true),
  })
  .refine((b) => (b.site_id ? 1 : 0) + (b.group_id ? 1 : 0) === 1, {
    message: 'A window belongs to one site or one group',
    path: ['site_id'],
  });
export type MaintenanceWindowBody = z.input<typeof MaintenanceWindowBody>;

export const MaintenanceWindow = z.object({
  id: z.number().int(),
  name: z.string(),
  site_id: z.number().int().nullable(),
  site_name: z.string().nullable(),
  group_id: z.number().int().nullable(),
  group_name: z.string().nullable(),
  days: z.array(z.number().int()),
  start_time: z.string(),
  duration_minutes: z.number().int(),
  enabled: z.boolean(),
  /** the IANA zone the window is read in (the site's; a group's windows use each device's site) */
  timezone: z.string().nullable(),
  /** the next opening from now, in UTC ISO (a site window only) */
  next_opens_at: z.string().nullable(),
  created_at: z.string(),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

// ---------- calls (docs/product/rollouts.md#maintenance-windows) ----------

export const maintenanceWindowMessages = {
  notFound: 'Maintenance window not found',
  siteNotFound: 'Site not found',
  groupNotFound: 'Group not found',
  groupReadOnly: 'Only administrators of all sites may change the windows of a group for all sites',
} as const;

/** GET /customer/maintenance-windows: every window the caller sees, or one site's or group's. */
export const MaintenanceWindowListQuery = z.object({
  site_id: IdParam.optional(),
  group_id: IdParam.optional(),
});
export type MaintenanceWindowListQuery = z.input<typeof MaintenanceWindowListQuery>;

export const MaintenanceWindowIdParams = z.object({ id: IdParam });
export const MaintenanceWindowList = z.array(MaintenanceWindow);
export type MaintenanceWindowList = z.infer<typeof MaintenanceWindowList>;
export type MaintenanceWindowInput = z.output<typeof MaintenanceWindowBody>;

/** DELETE answer */
export const MaintenanceWindowDeleted = z.object({ id: z.number().int() });
