import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

// The acting user's name, e-mail and role are kept on the entry so the log survives the user.
// site_ids: the sites the entry is about, null for a tenant-wide entry; a site-limited
// administrator reads only entries about their own sites (SECURITY.md R2-9).
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id'),
    userName: text('user_name'),
    userEmail: text('user_email'),
    userRole: text('user_role'),
    action: text().notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    details: text(),
    oldValues: text('old_values'),
    newValues: text('new_values'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    siteIds: integer('site_ids').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_logs_tenant_created_idx').on(t.tenantId, t.createdAt)],
);
