import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { sites } from './sites';
import { users } from './users';

// Enrolment tokens (docs/product/agent-protocol.md#enrolment): only the sha256 of the token is stored; the token is shown once.
export const enrollmentTokens = pgTable(
  'enrollment_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text(),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    useCount: integer('use_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('enrollment_tokens_hash_uq').on(t.tokenHash),
    index('enrollment_tokens_tenant_idx').on(t.tenantId, t.createdAt),
  ],
);
