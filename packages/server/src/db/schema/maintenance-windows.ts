import { index, integer, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { sites } from './sites';
import { deviceGroups } from './device-groups';

/**
 * A recurring weekly maintenance window of a site or a group (docs/product/rollouts.md#maintenance-windows),
 * read in the site's time zone. Written only by the maintenance-windows module.
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** weekdays, 0 = Sunday */
    days: integer().array().notNull(),
    /** minutes after local midnight */
    startMinute: integer('start_minute').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('maintenance_windows_site_idx').on(t.tenantId, t.siteId),
    index('maintenance_windows_group_idx').on(t.tenantId, t.groupId),
  ],
);
