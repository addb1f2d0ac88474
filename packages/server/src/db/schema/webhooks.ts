import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { users } from './users';

/**
 * An event webhook subscription of a tenant (docs/product/webhooks.md): the URL that receives the
 * events it names, signed with its secret (sealed with lib/secret-box.ts). Its deliveries are rows
 * of notification_deliveries (subscription_id), the one outbox. Written only by the webhooks module.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    url: text().notNull(),
    /** event names (contract WEBHOOK_EVENTS) */
    events: text().array().notNull(),
    enabled: boolean().notNull().default(true),
    secret: text().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_subscriptions_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`)],
);
