import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Role } from '@outpost/contract/auth';
import type { SsoRoleMapping } from '@outpost/contract/sso';
import { tenants } from './tenants';

// An organisation's own OpenID Connect provider (docs/product/sign-in.md#single-sign-on): one per
// tenant. The client secret is sealed with the server's key (lib/secret-box.ts, purpose
// "sso client secrets"); the allowed domains route a work e-mail to this provider at sign-in.
export const ssoProviders = pgTable(
  'sso_providers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    allowedDomains: jsonb('allowed_domains').$type<string[]>().notNull(),
    jitEnabled: boolean('jit_enabled').notNull().default(false),
    defaultRole: text('default_role').$type<Role>().notNull().default('user'),
    groupsClaim: text('groups_claim'),
    mappings: jsonb().$type<SsoRoleMapping[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_providers_tenant_uq').on(t.tenantId)],
);
