import type { FastifyBaseLogger } from 'fastify';
import { decodeJwt } from 'jose';
import { PORTAL_CLOSE } from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import type { Bus } from './bus';
import type { PortalAccess } from './portal-access';
import type { Client } from './portal-clients';

// The portal sockets' sessions (portal-socket.ts) are re-checked on a server-side timer, when the
// token expires and when the bus says a member's sessions ended, so a deleted user or an expired
// token stops receiving events without the client sending anything (closed with 4401).

/** Portal sessions re-read at once by the periodic check (the pool has 10 connections). */
const SESSION_CHECKS_AT_ONCE = 2;

/** The longest a timer may wait (setTimeout's limit, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type SessionChecks = {
  /** Re-reads the session; a deleted user, a removed membership or an expired token closes with 4401. */
  recheck: (client: Client) => Promise<boolean>;
  /** Closes the socket when its token expires (checked again then, through the same path). */
  scheduleExpiry(client: Client): void;
  close(): void;
};

export function startSessionChecks(deps: {
  access: PortalAccess;
  bus: Bus;
  log: FastifyBaseLogger;
  clients: Set<Client>;
  intervalMs: number;
}): SessionChecks {
  const { access, bus, log, clients } = deps;

  async function recheck(client: Client): Promise<boolean> {
    const fresh = await access.resolveSession(client.token, {
      ip: client.ctx.ip,
      userAgent: client.ctx.userAgent,
    });
    if (!fresh) {
      client.socket.close(PORTAL_CLOSE.invalidToken, messages.tokenInvalid.slice(0, 120));
      return false;
    }
    client.ctx = fresh;
    return true;
  }

  // SECURITY.md R2-1, R2-3: a member whose sessions ended (removed, role or sites changed) is
  // re-checked at once, so their sockets close (4401) instead of delivering until the next check.
  const unsubscribeSessions = bus.subscribe('portal.sessions', ({ userIds }) => {
    const ended = new Set(userIds);
    for (const client of clients) {
      if (ended.has(client.ctx.userId)) {
        recheck(client).catch((err: unknown) => log.error({ err }, 'portal session check failed'));
      }
    }
  });

  // A few at a time: every socket's session at once took every database connection for as long
  // as the reads lasted, and live updates (an agent's status change) waited behind them.
  let isRecheckingAll = false;
  const recheckAll = async () => {
    if (isRecheckingAll) {
      return;
    }
    isRecheckingAll = true;
    try {
      const all = [...clients];
      for (let i = 0; i < all.length; i += SESSION_CHECKS_AT_ONCE) {
        await Promise.all(
          all
            .slice(i, i + SESSION_CHECKS_AT_ONCE)
            .filter((client) => clients.has(client))
            .map((client) =>
              recheck(client).catch((err: unknown) => log.error({ err }, 'portal session check failed')),
            ),
        );
      }
    } finally {
      isRecheckingAll = false;
    }
  };
  // docs/product/live-updates.md#server-side: sessions are re-checked server-side, not only when the client speaks.
  const sessionChecker = setInterval(() => void recheckAll(), deps.intervalMs);
  sessionChecker.unref();

  return {
    recheck,
    scheduleExpiry(client) {
      // an API token (no JWT) expires at the time its context carries
      const tokenExpiry = client.ctx.apiToken?.expiresAt;
      const exp = client.ctx.apiToken
        ? tokenExpiry
          ? Math.ceil(tokenExpiry.getTime() / 1000)
          : undefined
        : decodeJwt(client.token).exp;
      if (exp === undefined) {
        return;
      }
      const ms = Math.min(MAX_TIMER_MS, Math.max(0, exp * 1000 - Date.now() + 50));
      client.expiryTimer = setTimeout(() => {
        recheck(client).catch((err: unknown) => log.error({ err }, 'portal session check failed'));
      }, ms);
      client.expiryTimer.unref();
    },
    close() {
      unsubscribeSessions();
      clearInterval(sessionChecker);
    },
  };
}
