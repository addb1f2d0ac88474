import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../lib/db';
import { sessions } from '../../db/schema/index';

// Server-side sessions (SECURITY.md R2-1 "Sessions"): a session token is accepted only while its
// row exists, is not revoked and has not expired. sessions.service.ts reads it in the same statement
// as the membership (auth.queries findSessionMember).

export async function insertSession(
  tx: Executor,
  s: { id: string; identityId: number; userId: number; tenantId: number; ttlSeconds: number },
): Promise<void> {
  await tx.insert(sessions).values({
    id: s.id,
    identityId: s.identityId,
    userId: s.userId,
    tenantId: s.tenantId,
    expiresAt: sql`now() + make_interval(secs => ${s.ttlSeconds})`,
  });
}

/** Sign-out and switching organisation: this session only. */
export async function revokeSession(tx: Executor, id: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** A member's role or sites changed: every session of theirs ends (they sign in again). */
export async function revokeMemberSessions(tx: Executor, userIds: number[]): Promise<void> {
  if (userIds.length === 0) {
    return;
  }
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(inArray(sessions.userId, userIds), isNull(sessions.revokedAt)));
}

/** Rows of an identity that can no longer be used (called at sign-in, so the table stays small). */
export async function deleteDeadSessions(tx: Executor, identityId: number): Promise<void> {
  await tx
    .delete(sessions)
    .where(
      and(
        eq(sessions.identityId, identityId),
        or(lt(sessions.expiresAt, sql`now()`), lt(sessions.revokedAt, sql`now() - interval '1 day'`)),
      ),
    );
}
