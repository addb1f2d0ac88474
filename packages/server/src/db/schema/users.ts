import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { NotificationPrefs, Role, SiteAccessType } from '@outpost/contract/auth';
import { tenants } from './tenants';
import { sites } from './sites';

// A users row is a membership: one person (e-mail) may have a row in several tenants.
export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    name: text(),
    role: text().$type<Role>().notNull().default('user'),
    siteAccessType: text('site_access_type').$type<SiteAccessType>().notNull().default('all'),
    company: text(),
    notificationPrefs: jsonb('notification_prefs').$type<NotificationPrefs>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_tenant_email_uq').on(t.tenantId, t.email), index('users_email_idx').on(t.email)],
);

export const userSites = pgTable(
  'user_sites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] })],
);
