import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { devices } from './devices';

// docs/product/devices.md#device-fields, one row per installed title and version, with the time it was
// first seen. Searchable per device and across the tenant (lower(name) / lower(display_name)).
export const deviceSoftware = pgTable(
  'device_software',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    displayName: text('display_name'),
    publisher: text(),
    /** '' when the platform reports none, so (device, name, version) is unique */
    version: text().notNull().default(''),
    installDate: text('install_date'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_software_device_name_version_uq').on(t.deviceId, t.name, t.version),
    index('device_software_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`),
    index('device_software_tenant_display_idx').on(t.tenantId, sql`lower(${t.displayName})`),
    // the dashboard's recently discovered software
    index('device_software_tenant_first_seen_idx').on(t.tenantId, t.firstSeenAt),
  ],
);
