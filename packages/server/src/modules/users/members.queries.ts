import { and, eq, isNull, notInArray, sql } from 'drizzle-orm';
import { users, userSites } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import { inTenant } from '../../lib/scope';

// Writes to memberships that other modules make inside their own transactions: a tenant's first
// members (tenants), and what signing in changes (auth). The users module owns the users and
// user_sites tables; members.service.ts is how other modules reach these statements.

/** Inserts a membership; null when the e-mail is already a member of that tenant. */
export async function insertMember(tx: Executor, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Gives a new member these sites (duplicates dropped). */
export async function insertMemberSites(tx: Executor, userId: number, siteIds: number[]): Promise<void> {
  const unique = [...new Set(siteIds)];
  if (unique.length > 0) {
    await tx.insert(userSites).values(unique.map((siteId) => ({ userId, siteId })));
  }
}

/** Fills in a member's name from the identity provider (first sign-in); their own row only. */
export async function setMemberName(tx: Executor, userId: number, name: string): Promise<void> {
  await tx.update(users).set({ name }).where(eq(users.id, userId));
}

/** The caller's own profile fields, in their own tenant. */
export async function updateMemberProfile(
  tx: Executor,
  member: { userId: number; tenantId: number },
  patch: Partial<Pick<typeof users.$inferInsert, 'name' | 'company' | 'notificationPrefs'>>,
): Promise<void> {
  await tx
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(inTenant(users, member), eq(users.id, member.userId)));
}

/**
 * Binds the open invitations for this verified e-mail to the identity: one per tenant (a tenant
 * where the identity already has a membership keeps that one). Bound rows are never unbound.
 */
export async function bindInvitations(
  tx: Executor,
  identityId: number,
  email: string,
  /** an organisation's own provider binds only that organisation's invitations */
  onlyTenantId?: number,
): Promise<void> {
  const memberOf = tx
    .select({ tenantId: users.tenantId })
    .from(users)
    .where(eq(users.identityId, identityId));
  await tx
    .update(users)
    .set({ identityId, updatedAt: sql`now()` })
    .where(
      and(
        isNull(users.identityId),
        eq(users.email, email.toLowerCase()),
        notInArray(users.tenantId, memberOf),
        onlyTenantId === undefined ? undefined : eq(users.tenantId, onlyTenantId),
      ),
    );
}

/**
 * A member's role and site access as their organisation's identity provider says at sign-in
 * (docs/product/sign-in.md#single-sign-on); `siteIds` matter for specific access only.
 */
export async function setMemberAccess(
  tx: Executor,
  userId: number,
  access: { role: typeof users.$inferInsert.role; siteAccessType: typeof users.$inferInsert.siteAccessType },
  siteIds: number[],
): Promise<void> {
  await tx
    .update(users)
    .set({ ...access, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
  await tx.delete(userSites).where(eq(userSites.userId, userId));
  await insertMemberSites(tx, userId, access.siteAccessType === 'specific' ? siteIds : []);
}
