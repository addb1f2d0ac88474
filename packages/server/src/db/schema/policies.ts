import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { PolicySchedule, PolicyTargetType, PolicyTrigger } from '@outpost/contract/policies';
import { tenants } from './tenants';
import { sites } from './sites';
import { users } from './users';
import { deploymentPackages } from './packages';
import { deviceGroups } from './device-groups';
import { devices } from './devices';

// docs/product/device-sets.md#automation-policies. Written by the policies module only.

/**
 * A policy: a package deployed to a target (the tenant, a site, a group) on a schedule or to each
 * device as it joins. site_id is the site target, or the owner site of the group target (so site
 * scope is one column); both null for a tenant target.
 */
export const policies = pgTable(
  'policies',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text(),
    targetType: text('target_type').$type<PolicyTargetType>().notNull(),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'cascade' }),
    /** null once the package is deleted: the policy then runs nothing until it is given another */
    packageId: integer('package_id').references(() => deploymentPackages.id, { onDelete: 'set null' }),
    trigger: text().$type<PolicyTrigger>().notNull(),
    schedule: jsonb().$type<PolicySchedule>(),
    enabled: boolean().notNull().default(true),
    /** when the policy was last enabled or its schedule changed: occurrences and joins count from here */
    activeSince: timestamp('active_since', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('policies_tenant_idx').on(t.tenantId, t.name),
    // the scheduler's pass: enabled policies of every tenant
    index('policies_enabled_idx')
      .on(t.trigger)
      .where(sql`${t.enabled}`),
  ],
);

/**
 * One claimed occurrence of a scheduled policy in one time zone: the primary key is the claim, so
 * two instances never run the same occurrence (insert … on conflict do nothing returning).
 */
export const policyRuns = pgTable(
  'policy_runs',
  {
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    /** the IANA time zone the occurrence is in (the devices of the sites in it) */
    zone: text().notNull(),
    occurrenceAt: timestamp('occurrence_at', { withTimezone: true }).notNull(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
    devices: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.zone, t.occurrenceAt] })],
);

/** A "when a device joins" run: once per policy, device and package version. */
export const policyDeviceRuns = pgTable(
  'policy_device_runs',
  {
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    packageVersion: text('package_version').notNull(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    jobId: integer('job_id'),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.policyId, t.deviceId, t.packageVersion] }),
    index('policy_device_runs_device_idx').on(t.deviceId),
  ],
);
