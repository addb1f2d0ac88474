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
import type { AlertCondition, AlertState } from '@outpost/contract/alerts';
import type { Severity } from '@outpost/contract/checks';
import { tenants } from './tenants';
import { sites } from './sites';
import { users } from './users';
import { deviceGroups } from './device-groups';
import { devices } from './devices';
import { notificationChannels } from './notifications';

// docs/product/monitoring.md#alerts. Written by the alerts module only.

/**
 * An alert. `condition_key` names the condition and its subject ("check:12:device:55",
 * "offline:device:55", "rollout_halted:job:9"): the partial unique index keeps one alert that is
 * not resolved per key, so two instances noticing the same failure meet on the same row.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    condition: text().$type<AlertCondition>().notNull(),
    conditionKey: text('condition_key').notNull(),
    title: text().notNull(),
    detail: text(),
    severity: text().$type<Severity>().notNull(),
    state: text().$type<AlertState>().notNull().default('open'),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'set null' }),
    checkId: integer('check_id'),
    jobId: integer('job_id'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    occurrences: integer().notNull().default(1),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedByName: text('acknowledged_by_name'),
    acknowledgeNote: text('acknowledge_note'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedByName: text('resolved_by_name'),
    resolveNote: text('resolve_note'),
    silenced: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('alerts_one_open_idx')
      .on(t.tenantId, t.conditionKey)
      .where(sql`${t.state} <> 'resolved'`),
    index('alerts_tenant_state_idx').on(t.tenantId, t.state, t.lastSeenAt),
    index('alerts_device_idx').on(t.deviceId),
  ],
);

/** Maintenance mode of a device or a site: its alerts are silenced until `until`. */
export const maintenanceModes = pgTable(
  'maintenance_modes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    until: timestamp({ withTimezone: true }).notNull(),
    reason: text(),
    setBy: integer('set_by').references(() => users.id, { onDelete: 'set null' }),
    setByName: text('set_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('maintenance_modes_device_idx').on(t.deviceId),
    uniqueIndex('maintenance_modes_site_idx').on(t.siteId),
  ],
);

/** A routing rule: which alerts go to which channels. */
export const alertRoutes = pgTable('alert_routes', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  enabled: boolean().notNull().default(true),
  severities: jsonb().$type<Severity[]>().notNull(),
  conditions: jsonb().$type<AlertCondition[]>().notNull(),
  targetType: text('target_type').$type<'tenant' | 'site' | 'group'>().notNull(),
  siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const alertRouteChannels = pgTable(
  'alert_route_channels',
  {
    routeId: integer('route_id')
      .notNull()
      .references(() => alertRoutes.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.routeId, t.channelId] })],
);
