import { jwtVerify, SignJWT } from 'jose';
import { SESSION_TOKEN_TTL_SECONDS } from '@outpost/contract/limits';
import type { Role } from '@outpost/contract/auth';

export type SessionClaims = { userId: number; tenantId: number; role: Role };

const ISSUER = 'outpost';

// The server's own session token: HS256 with the server key, short-lived.
export function createSessionTokens(secret: Uint8Array) {
  return {
    async issue(claims: SessionClaims): Promise<string> {
      return new SignJWT({ tid: claims.tenantId, role: claims.role })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TOKEN_TTL_SECONDS}s`)
        .sign(secret);
    },
    /** Returns null for any token that is not ours, expired or malformed. */
    async verify(token: string): Promise<SessionClaims | null> {
      try {
        const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        const tenantId = Number(payload.tid);
        if (!Number.isInteger(userId) || !Number.isInteger(tenantId)) {
          return null;
        }
        return { userId, tenantId, role: payload.role === 'tenant_admin' ? 'tenant_admin' : 'user' };
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
