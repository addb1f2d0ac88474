import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

export const sites = pgTable(
  'sites',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    siteName: text('site_name').notNull(),
    siteCode: text('site_code').notNull(),
    description: text(),
    address: text(),
    city: text(),
    state: text(),
    country: text(),
    postalCode: text('postal_code'),
    timezone: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sites_tenant_code_uq').on(t.tenantId, t.siteCode),
    index('sites_tenant_idx').on(t.tenantId),
  ],
);
