import { jwtVerify, SignJWT } from 'jose';
import { SESSION_TOKEN_TTL_SECONDS } from '@outpost/contract/limits';
import type { Role } from '@outpost/contract/auth';

/** `sessionId` names the server-side session row (sessions.queries); `identityId` the person. */
export type SessionClaims = {
  userId: number;
  tenantId: number;
  role: Role;
  sessionId: string;
  identityId: number;
};

const ISSUER = 'outpost';

/** Verified tokens remembered at most (the oldest goes first). */
const VERIFIED_TOKENS_KEPT = 10_000;

// The server's own session token: HS256 with the server key, short-lived.
//
// A verified token is remembered until it expires: the same string under the same key verifies
// the same way until then, and checking a signature (WebCrypto HMAC) is a tenth of a cheap API
// request's CPU. Only the token's claims are kept; who the member is and whether they still
// exist, and whether the session was revoked, is read from the database on every request
// (plugins/auth.ts), so this changes nothing about a deleted user, a changed role or a sign-out.
export function createSessionTokens(secret: Uint8Array, clock: { now(): number } = Date) {
  const verified = new Map<string, { claims: SessionClaims; expiresAt: number }>();
  function remember(token: string, claims: SessionClaims, exp: number | undefined): void {
    if (exp === undefined) {
      return;
    }
    verified.set(token, { claims, expiresAt: exp * 1000 });
    if (verified.size > VERIFIED_TOKENS_KEPT) {
      verified.delete(verified.keys().next().value!);
    }
  }
  return {
    async issue(claims: SessionClaims): Promise<string> {
      return new SignJWT({
        tid: claims.tenantId,
        role: claims.role,
        sid: claims.sessionId,
        idn: claims.identityId,
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TOKEN_TTL_SECONDS}s`)
        .sign(secret);
    },
    /** Returns null for any token that is not ours, expired or malformed. */
    async verify(token: string): Promise<SessionClaims | null> {
      const known = verified.get(token);
      if (known) {
        if (clock.now() < known.expiresAt) {
          return known.claims;
        }
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, secret, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          currentDate: new Date(clock.now()),
        });
        const userId = Number(payload.sub);
        const tenantId = Number(payload.tid);
        const { sid, idn } = payload;
        if (
          !Number.isInteger(userId) ||
          !Number.isInteger(tenantId) ||
          typeof sid !== 'string' ||
          typeof idn !== 'number' ||
          !Number.isInteger(idn)
        ) {
          return null;
        }
        const claims: SessionClaims = {
          userId,
          tenantId,
          role: payload.role === 'tenant_admin' ? 'tenant_admin' : 'user',
          sessionId: sid,
          identityId: idn,
        };
        remember(token, claims, payload.exp);
        return claims;
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
