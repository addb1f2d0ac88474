import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

// How many devices a tenant has per site, status and OS type: the device list's pagination total
// and the dashboard's counts read these few rows instead of counting the tenant's devices on
// every request (issue 13; at 100,000 devices a count(*) was most of a list request's SQL).
// Kept by statement-level triggers on `devices` (migration 0007_api_speed), so every writer
// (enrolment, the agent socket, the presence sweeper, deletes, site deletion, tenant deletion,
// a tenant move) keeps them exact in its own transaction. site_id 0 stands for no site and
// os_type '' for no OS type (primary key columns cannot be null). No foreign keys: the
// triggers bring a deleted tenant's or site's rows to 0 as its devices go.
export const deviceCounts = pgTable(
  'device_counts',
  {
    tenantId: integer('tenant_id').notNull(),
    siteId: integer('site_id').notNull(),
    status: text().notNull(),
    osType: text('os_type').notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.siteId, t.status, t.osType] })],
);
