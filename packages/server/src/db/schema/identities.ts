import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// A person, as an identity provider knows them (SECURITY.md R2-1): the provider's issuer and
// subject, never a field a tenant can edit. Memberships (users rows) link an identity to a tenant.
// Rows migrated from before identities existed are keyed by e-mail (issuer `urn:outpost:email`)
// until that person's next sign-in moves them to the provider's subject.
export const identities = pgTable(
  'identities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    issuer: text().notNull(),
    subject: text().notNull(),
    /** the verified e-mail the provider asserted at the last sign-in */
    email: text().notNull(),
    name: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('identities_issuer_subject_uq').on(t.issuer, t.subject)],
);

// One-time sign-in links an operator makes with the CLI (`npm run outpost -- sign-in-link`): the way
// in where no identity provider is configured and dev sign-in is off (SECURITY.md R2-7). Only the
// sha256 of the link's secret is stored; a link works once, for 15 minutes.
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    email: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sign_in_links_token_uq').on(t.tokenHash)],
);
