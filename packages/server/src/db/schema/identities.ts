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
