import crypto from 'node:crypto';

// Enrolment tokens and agent secrets are 256-bit random values; only their sha256 is stored.
// A fast hash is right here: the values are random, not passwords, so there is nothing to guess.

export const TOKEN_PREFIX = 'opt_';

export function newEnrollmentToken(): string {
  return TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
}

export function newAgentSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashSecret(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** What the token list shows to recognise a token: its first characters after the prefix. */
export const tokenPrefixOf = (token: string) => token.slice(0, TOKEN_PREFIX.length + 6);
