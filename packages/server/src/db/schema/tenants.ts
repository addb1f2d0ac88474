import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const tenants = pgTable('tenants', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  tenantName: text('tenant_name').notNull(),
  plan: text().notNull().default('Standard'),
  maxAgents: integer('max_agents'),
  licenseExpiry: timestamp('license_expiry', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
