import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import { messages } from '@outpost/contract/messages';
import { unauthorized } from '../../lib/errors';

/** `issuer` is the provider's first configured issuer: one person, whichever alias signed the token. */
export type VerifiedIdentity = { issuer: string; subject: string; email: string; name: string | null };

export type OidcVerifierOptions = {
  jwksUrl: string;
  issuers: string[];
  audience: string;
  /** Tests may hand a key set directly; production fetches jwksUrl (cached by jose). */
  keySet?: JWTVerifyGetKey;
};

export type OidcVerifier = (idToken: string) => Promise<VerifiedIdentity>;

// A generic OpenID Connect ID-token verifier: Google is configuration (JWKS URL, issuers, audience),
// so a second provider is configuration too. Tests mint tokens with a local key and run this code.
export function createOidcVerifier(options: OidcVerifierOptions): OidcVerifier {
  const keySet = options.keySet ?? createRemoteJWKSet(new URL(options.jwksUrl));
  return async (idToken) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, keySet, {
        issuer: options.issuers,
        audience: options.audience,
        algorithms: ['RS256', 'ES256'],
      }));
    } catch (err) {
      throw unauthorized(describeFailure(err), 'INVALID_ID_TOKEN');
    }
    if (typeof payload.email !== 'string' || payload.email === '') {
      throw unauthorized(messages.googleTokenInvalid, 'INVALID_ID_TOKEN');
    }
    // Google sends email_verified as a boolean (older tokens: the string "true").
    if (payload.email_verified !== true && payload.email_verified !== 'true') {
      throw unauthorized(messages.googleEmailUnverified, 'EMAIL_UNVERIFIED');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw unauthorized(messages.googleTokenInvalid, 'INVALID_ID_TOKEN');
    }
    return {
      issuer: options.issuers[0] ?? String(payload.iss),
      subject: payload.sub,
      email: payload.email.toLowerCase(),
      name: typeof payload.name === 'string' ? payload.name : null,
    };
  };
}

function describeFailure(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) {
    return messages.googleTokenExpired;
  }
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') {
      return messages.googleTokenWrongAudience;
    }
    if (err.claim === 'iss') {
      return messages.googleTokenWrongIssuer;
    }
  }
  return messages.googleTokenInvalid;
}
