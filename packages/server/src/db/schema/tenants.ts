import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const tenants = pgTable('tenants', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  tenantName: text('tenant_name').notNull(),
  plan: text().notNull().default('Standard'),
  maxAgents: integer('max_agents'),
  licenseExpiry: timestamp('license_expiry', { withTimezone: true }),
  /** bytes of uploaded files the tenant may keep; null: the instance default (SECURITY.md R2-14) */
  storageQuotaBytes: bigint('storage_quota_bytes', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
