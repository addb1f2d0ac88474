import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../lib/db';
import { signInLinks } from '../../db/schema/index';

// One-time sign-in links (SECURITY.md R2-7): stored as the sha256 of their secret, used at most once.

export async function insertSignInLink(
  tx: Executor,
  link: { tokenHash: string; email: string; ttlSeconds: number },
): Promise<void> {
  await tx.insert(signInLinks).values({
    tokenHash: link.tokenHash,
    email: link.email,
    expiresAt: sql`now() + make_interval(secs => ${link.ttlSeconds})`,
  });
}

/** Marks the link used and answers its e-mail; null for an unknown, expired or used link. */
export async function consumeSignInLink(tx: Executor, tokenHash: string): Promise<string | null> {
  const [row] = await tx
    .update(signInLinks)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(signInLinks.tokenHash, tokenHash),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, sql`now()`),
      ),
    )
    .returning({ email: signInLinks.email });
  return row?.email ?? null;
}
