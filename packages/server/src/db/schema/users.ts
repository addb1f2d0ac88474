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
import { identities } from './identities';

// A users row is a membership (SECURITY.md R2-1): an invitation by e-mail until the invited person
// first signs in with a verified matching e-mail, then bound to their identity for good.
export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    /** null while the invitation is open; set once, at the invited person's first sign-in */
    identityId: integer('identity_id').references(() => identities.id, { onDelete: 'set null' }),
    name: text(),
    role: text().$type<Role>().notNull().default('user'),
    siteAccessType: text('site_access_type').$type<SiteAccessType>().notNull().default('all'),
    company: text(),
    notificationPrefs: jsonb('notification_prefs').$type<NotificationPrefs>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_tenant_email_uq').on(t.tenantId, t.email),
    index('users_email_idx').on(t.email),
    uniqueIndex('users_tenant_identity_uq').on(t.tenantId, t.identityId),
    index('users_identity_idx').on(t.identityId),
  ],
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
