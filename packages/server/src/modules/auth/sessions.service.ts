import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { findSessionMember, listUserSiteIds } from './auth.queries';
import type { SessionTokens } from './session-token';
import { revokeMemberSessions } from './sessions.queries';

/**
 * Resolves a session token to a live session and its membership row. Both are read on every
 * request, so a sign-out, a deleted user or a changed role takes effect at once, on every
 * instance. It is one indexed primary-key join.
 */
export async function resolveSession(
  db: Db,
  tokens: SessionTokens,
  token: string,
  meta: { ip: string; userAgent: string | null },
): Promise<RequestContext | null> {
  const claims = await tokens.verify(token);
  if (!claims) {
    return null;
  }
  const row = await findSessionMember(db, claims);
  if (!row) {
    return null;
  }
  const siteIds = row.siteAccessType === 'specific' ? await listUserSiteIds(db, row.userId) : [];
  return { ...row, siteIds, ip: meta.ip, userAgent: meta.userAgent };
}

// Ending members' sessions from other modules (SECURITY.md R2-1 "Sessions"): the users module
// revokes them in its own transaction when a role or site access changes, and announces the end
// once that transaction has committed, so portal sockets on every instance re-check at once.
export type SessionControl = {
  /** inside the caller's transaction: every session of these members stops working */
  revokeMembers(tx: Executor, userIds: number[]): Promise<void>;
  /** after commit: live sockets of these members re-read their session (and close, 4401) */
  announceEnded(userIds: number[]): Promise<void>;
};

export function createSessionControl(notify: (userIds: number[]) => Promise<void>): SessionControl {
  return {
    revokeMembers: revokeMemberSessions,
    async announceEnded(userIds) {
      if (userIds.length > 0) {
        await notify(userIds);
      }
    },
  };
}
