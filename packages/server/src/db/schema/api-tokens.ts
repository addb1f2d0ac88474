import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { users } from './users';

// API tokens for automation (docs/product/administration.md#api-tokens): only the sha256 of the
// secret is stored; the secret is shown once. A token acts for the administrator who created it,
// within its scopes and sites (modules/api-tokens).
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    /** `<area>:read|write` (contract/api-tokens.ts API_TOKEN_SCOPES) */
    scopes: jsonb().$type<string[]>().notNull(),
    /** the sites the token is limited to; null: every site of its creator */
    siteIds: integer('site_ids').array(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_uq').on(t.tokenHash),
    index('api_tokens_tenant_idx').on(t.tenantId, t.createdAt),
  ],
);
