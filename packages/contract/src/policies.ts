import { z } from 'zod';
import { Id, IdParam } from './input';
import { DeploymentJob } from './deployments';

// Automation policies (docs/product/device-sets.md#automation-policies): a package deployed to a
// target (the tenant, a site or a group) on a schedule in each site's local time, or to each
// device as it joins the target.

export const POLICY_NAME_MAX = 120;
export const POLICY_DESCRIPTION_MAX = 1000;

export const POLICY_TARGET_TYPES = ['tenant', 'site', 'group'] as const;
export const PolicyTargetType = z.enum(POLICY_TARGET_TYPES, {
  error: 'Target must be the whole organisation, a site or a group',
});
export type PolicyTargetType = z.infer<typeof PolicyTargetType>;

export const POLICY_TRIGGERS = ['schedule', 'join'] as const;
export const PolicyTrigger = z.enum(POLICY_TRIGGERS, {
  error: 'Trigger must be a schedule or "when a device joins"',
});
export type PolicyTrigger = z.infer<typeof PolicyTrigger>;

export const policyMessages = {
  notFound: 'Policy not found',
  nameRequired: 'Policy name is required',
  timeInvalid: 'Time must be HH:MM (24-hour), e.g. 02:30',
  weekdaysRequired: 'Choose at least one day of the week',
  weekdayInvalid: 'Days of the week are 0 (Sunday) to 6 (Saturday)',
  dayOfMonthInvalid: 'Day of the month must be 1 to 28, or "last"',
  frequencyInvalid: 'Frequency must be daily, weekly or monthly',
  scheduleRequired: 'A scheduled policy needs a schedule',
  siteRequired: 'Choose the site the policy targets',
  groupRequired: 'Choose the group the policy targets',
  siteNotFound: 'Site not found',
  groupNotFound: 'Group not found',
  packageNotFound: 'Package not found',
  packageHasNoSteps: 'This package has no steps to run',
  tenantTargetAdminOnly: 'Only administrators of all sites may target the whole organisation',
  packageOutsideTarget: (site: string) =>
    `This package belongs to ${site}: a policy deploying it must target that site or one of its groups`,
} as const;

/** HH:MM, 24-hour, local time of each site. */
export const PolicyTime = z.string({ error: policyMessages.timeInvalid }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
  error: policyMessages.timeInvalid,
});

export const Weekday = z
  .number({ error: policyMessages.weekdayInvalid })
  .int(policyMessages.weekdayInvalid)
  .min(0, policyMessages.weekdayInvalid)
  .max(6, policyMessages.weekdayInvalid);

export const DayOfMonth = z.union(
  [
    z
      .number()
      .int(policyMessages.dayOfMonthInvalid)
      .min(1, policyMessages.dayOfMonthInvalid)
      .max(28, policyMessages.dayOfMonthInvalid),
    z.literal('last'),
  ],
  { error: policyMessages.dayOfMonthInvalid },
);

/**
 * When a scheduled policy runs (docs/decisions/2026-11-26-policy-schedules.md): daily, weekly on
 * chosen days (0 = Sunday) or monthly on a day 1–28 or the last day, at a local time.
 */
export const PolicySchedule = z.discriminatedUnion(
  'frequency',
  [
    z.object({ frequency: z.literal('daily'), time: PolicyTime }),
    z.object({
      frequency: z.literal('weekly'),
      time: PolicyTime,
      weekdays: z
        .array(Weekday, { error: policyMessages.weekdaysRequired })
        .min(1, policyMessages.weekdaysRequired)
        .max(7, policyMessages.weekdayInvalid),
    }),
    z.object({ frequency: z.literal('monthly'), time: PolicyTime, day_of_month: DayOfMonth }),
  ],
  { error: policyMessages.frequencyInvalid },
);
export type PolicySchedule = z.output<typeof PolicySchedule>;

/** The schedule as stored: a weekly schedule's days once each, in order. */
export function normaliseSchedule(schedule: PolicySchedule): PolicySchedule {
  return schedule.frequency === 'weekly'
    ? { ...schedule, weekdays: [...new Set(schedule.weekdays)].sort((a, b) => a - b) }
    : schedule;
}

const Name = z
  .string({ error: policyMessages.nameRequired })
  .trim()
  .min(1, policyMessages.nameRequired)
  .max(POLICY_NAME_MAX, `Policy name must be ${POLICY_NAME_MAX} characters or less`);
const Description = z
  .string()
  .max(POLICY_DESCRIPTION_MAX, `Description must be ${POLICY_DESCRIPTION_MAX} characters or less`)
  .nullable()
  .optional();

/** POST /customer/policies. site_id for a site target, group_id for a group target. */
export const PolicyCreateBody = z.object({
  name: Name,
  description: Description,
  target_type: PolicyTargetType,
  site_id: Id.nullable().optional(),
  group_id: Id.nullable().optional(),
  package_id: Id,
  trigger: PolicyTrigger,
  schedule: PolicySchedule.nullable().optional(),
  enabled: z.boolean().default(true),
});
export type PolicyCreateBody = z.input<typeof PolicyCreateBody>;
export type PolicyCreateInput = z.output<typeof PolicyCreateBody>;

/** PUT /customer/policies/:id: every field optional; what is given replaces. */
export const PolicyUpdateBody = PolicyCreateBody.omit({ enabled: true }).partial().extend({
  enabled: z.boolean().optional(),
});
export type PolicyUpdateInput = z.output<typeof PolicyUpdateBody>;

export const PolicyIdParams = z.object({ id: IdParam });

export const PolicyTarget = z.object({
  type: PolicyTargetType,
  site_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  /** "All devices", the site's or the group's name */
  name: z.string(),
});

export const Policy = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  target: PolicyTarget,
  package_id: z.number().int().nullable(),
  package_name: z.string().nullable(),
  trigger: PolicyTrigger,
  schedule: PolicySchedule.nullable(),
  enabled: z.boolean(),
  /** when the policy was last enabled (joins and occurrences count from here) */
  active_since: z.string().nullable(),
  last_run_at: z.string().nullable(),
  /** the next occurrence in any of the target's time zones; null for a join policy or a disabled one */
  next_run_at: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Policy = z.infer<typeof Policy>;

/** One time zone's next occurrence (the detail lists each zone the target's devices are in). */
export const PolicyZoneRun = z.object({ time_zone: z.string(), next_run_at: z.string() });

export const PolicyDetail = Policy.extend({
  next_runs: z.array(PolicyZoneRun),
  jobs: z.array(DeploymentJob),
});
export type PolicyDetail = z.infer<typeof PolicyDetail>;

export const PolicyListResponse = z.array(Policy);
export const PolicyJobsResponse = z.array(DeploymentJob);
