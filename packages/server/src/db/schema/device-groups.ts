import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { sites } from './sites';
import { users } from './users';
import { devices } from './devices';

export type DeviceGroupKind = 'static' | 'dynamic';

// docs/product/device-sets.md#groups. A static group holds chosen devices; a dynamic group a saved
// filter (contract groups.ts) whose matches the server keeps as member rows, re-evaluated when a
// device changes, so a group page and its count never evaluate the filter on read. site_id is
// the owner scope, as for packages: null = the whole tenant (administrators), a site = that
// site's users. Written by the groups module only.
export const deviceGroups = pgTable(
  'device_groups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text(),
    kind: text().$type<DeviceGroupKind>().notNull(),
    /** the dynamic group's filter (contract groups.ts GroupFilter); null for a static group */
    filter: jsonb().$type<Record<string, unknown>>(),
    /** when the members of a dynamic group were last evaluated in full */
    evaluatedAt: timestamp('evaluated_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_groups_tenant_idx').on(t.tenantId, t.name)],
);

// The members of a group, static or dynamic. added_at: when the device entered the group (the
// "when a device joins" policies read it).
export const deviceGroupMembers = pgTable(
  'device_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => deviceGroups.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    // no foreign key of its own (migration 0021): the group's and the device's keys already tie the
    // row to its tenant and remove it with either, and a third per-row check made materialising a
    // group over 100,000 devices a third slower (docs/decisions/2026-11-26-group-membership.md)
    tenantId: integer('tenant_id').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.deviceId] }),
    index('device_group_members_device_idx').on(t.deviceId),
    index('device_group_members_added_idx').on(t.groupId, t.addedAt),
  ],
);
