import { sql } from 'drizzle-orm';
import { index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { identities } from './identities';
import { tenants } from './tenants';
import { users } from './users';

// A signed-in session (SECURITY.md R2-1, "Sessions"): the session token names it, and REST and the
// portal socket accept the token only while the row exists and is not revoked. Sign-out revokes
// it; removing a membership deletes it; a role or site change revokes the member's sessions.
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey(),
    identityId: integer('identity_id')
      .notNull()
      .references(() => identities.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.revokedAt} is null`),
  ],
);
