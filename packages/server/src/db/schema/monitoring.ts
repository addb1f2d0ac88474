import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CheckConfig, CheckState, Severity } from '@outpost/contract/checks';
import type { PolicyTargetType } from '@outpost/contract/policies';
import { tenants } from './tenants';
import { sites } from './sites';
import { users } from './users';
import { deviceGroups } from './device-groups';
import { devices } from './devices';

// docs/product/monitoring.md#checks. Written by the monitoring module only.

/**
 * A monitoring policy: checks (and an offline threshold) for a target (the tenant, a site, a
 * group). site_id is the site target, or the owner site of the group target; null for the tenant.
 */
export const monitoringPolicies = pgTable(
  'monitoring_policies',
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
    enabled: boolean().notNull().default(true),
    offlineAlertMinutes: integer('offline_alert_minutes'),
    offlineSeverity: text('offline_severity').$type<Severity>().notNull().default('warning'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('monitoring_policies_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`)],
);

/** A check of a policy; its id is what the agent reports against. */
export const monitoringChecks = pgTable(
  'monitoring_checks',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    policyId: integer('policy_id')
      .notNull()
      .references(() => monitoringPolicies.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    name: text().notNull(),
    config: jsonb().$type<CheckConfig>().notNull(),
    intervalSeconds: integer('interval_seconds').notNull(),
    failuresBeforeAlert: integer('failures_before_alert').notNull(),
    severity: text().$type<Severity>().notNull(),
  },
  (t) => [index('monitoring_checks_policy_idx').on(t.policyId, t.position)],
);

/** A check's last reported state on one device (the agent reports changes only). */
export const deviceCheckStates = pgTable(
  'device_check_states',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    checkId: integer('check_id')
      .notNull()
      .references(() => monitoringChecks.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    state: text().$type<CheckState>().notNull(),
    output: text(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    /** when the state last changed */
    since: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.checkId] }),
    index('device_check_states_check_idx').on(t.checkId),
  ],
);
