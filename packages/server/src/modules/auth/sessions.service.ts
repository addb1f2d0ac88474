import type { Executor } from '../../lib/db';
import { revokeMemberSessions } from './sessions.queries';

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
