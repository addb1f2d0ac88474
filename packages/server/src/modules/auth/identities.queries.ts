import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../lib/db';
import { firstOrThrow } from '../../lib/db';
import { identities } from '../../db/schema/index';

// Identities (SECURITY.md R2-1). A person is the identity provider's issuer and subject; the
// e-mail a tenant typed is only an invitation, bound to the first identity that signs in with that
// e-mail verified, and never moved to another after that (users/members.queries.ts binds it).

/** Identities migrated from e-mail memberships, until their person's next sign-in re-keys them. */
export const EMAIL_ISSUER = 'urn:outpost:email';
/** Password-less dev sign-in is an identity provider like any other: its subject is the e-mail. */
export const DEV_ISSUER = 'urn:outpost:dev';

/** What an identity provider asserted; `email` is verified and lower-case. */
export type AssertedIdentity = { issuer: string; subject: string; email: string; name: string | null };

/**
 * The identity for a provider's issuer and subject, created on first sign-in. A migrated identity
 * keyed by the same verified e-mail is taken over instead (its memberships follow), once.
 */
export async function upsertIdentity(tx: Executor, who: AssertedIdentity): Promise<number> {
  const now = sql`now()`;
  const [known] = await tx
    .update(identities)
    .set({ email: who.email, lastSignInAt: now, ...(who.name && { name: who.name }) })
    .where(and(eq(identities.issuer, who.issuer), eq(identities.subject, who.subject)))
    .returning({ id: identities.id });
  if (known) {
    return known.id;
  }
  const [migrated] = await tx
    .update(identities)
    .set({
      issuer: who.issuer,
      subject: who.subject,
      email: who.email,
      lastSignInAt: now,
      ...(who.name && { name: who.name }),
    })
    .where(and(eq(identities.issuer, EMAIL_ISSUER), eq(identities.subject, who.email)))
    .returning({ id: identities.id });
  if (migrated) {
    return migrated.id;
  }
  const inserted = await tx
    .insert(identities)
    .values({ issuer: who.issuer, subject: who.subject, email: who.email, name: who.name, lastSignInAt: now })
    .onConflictDoUpdate({
      target: [identities.issuer, identities.subject],
      set: { email: who.email, lastSignInAt: now },
    })
    .returning({ id: identities.id });
  return firstOrThrow(inserted, 'insert identity').id;
}
