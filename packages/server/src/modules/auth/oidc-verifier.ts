import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { messages } from '@outpost/contract/messages';
import { unauthorized } from '../../lib/errors';

/** `issuer` is the provider's first configured issuer: one person, whichever alias signed the token. */
export type VerifiedIdentity = {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  /** every claim of the token (single sign-on reads its group claim) */
  claims?: JWTPayload;
};

/** The words of each refusal: Google's by default, single sign-on's for other providers. */
export type VerifierWords = {
  invalid: string;
  wrongAudience: string;
  wrongIssuer: string;
  expired: string;
  unverified: string;
  wrongNonce: string;
};

const googleWords: VerifierWords = {
  invalid: messages.googleTokenInvalid,
  wrongAudience: messages.googleTokenWrongAudience,
  wrongIssuer: messages.googleTokenWrongIssuer,
  expired: messages.googleTokenExpired,
  unverified: messages.googleEmailUnverified,
  wrongNonce: messages.googleTokenInvalid,
};

export type OidcVerifierOptions = {
  jwksUrl: string;
  issuers: string[];
  audience: string;
  /** Tests may hand a key set directly; production fetches jwksUrl (cached by jose). */
  keySet?: JWTVerifyGetKey;
  words?: VerifierWords;
  /**
   * claims any one of which, true, says the e-mail is verified (default `email_verified`; Microsoft
   * Entra ID says it with `xms_edov`, docs/decisions/2026-11-27-oidc-sign-in.md)
   */
  emailVerifiedClaims?: string[];
};

/** `nonce`: the value this sign-in sent to the provider; the token must carry it (code flow). */
export type OidcVerifier = (idToken: string, checks?: { nonce?: string }) => Promise<VerifiedIdentity>;

// A generic OpenID Connect ID-token verifier: Google is configuration (JWKS URL, issuers, audience),
// so a second provider is configuration too. Tests mint tokens with a local key and run this code.
export function createOidcVerifier(options: OidcVerifierOptions): OidcVerifier {
  const keySet = options.keySet ?? createRemoteJWKSet(new URL(options.jwksUrl));
  const words = options.words ?? googleWords;
  const verifiedClaims = options.emailVerifiedClaims ?? ['email_verified'];
  return async (idToken, checks) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, keySet, {
        issuer: options.issuers,
        audience: options.audience,
        algorithms: ['RS256', 'ES256'],
      }));
    } catch (err) {
      throw unauthorized(describeFailure(err, words), 'INVALID_ID_TOKEN');
    }
    if (checks?.nonce !== undefined && payload.nonce !== checks.nonce) {
      throw unauthorized(words.wrongNonce, 'INVALID_ID_TOKEN');
    }
    if (typeof payload.email !== 'string' || payload.email === '') {
      throw unauthorized(words.invalid, 'INVALID_ID_TOKEN');
    }
    // Google sends email_verified as a boolean (older tokens: the string "true").
    if (!verifiedClaims.some((c) => payload[c] === true || payload[c] === 'true')) {
      throw unauthorized(words.unverified, 'EMAIL_UNVERIFIED');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw unauthorized(words.invalid, 'INVALID_ID_TOKEN');
    }
    return {
      issuer: options.issuers[0] ?? String(payload.iss),
      subject: payload.sub,
      email: payload.email.toLowerCase(),
      name: typeof payload.name === 'string' ? payload.name : null,
      claims: payload,
    };
  };
}

function describeFailure(err: unknown, words: VerifierWords): string {
  if (err instanceof joseErrors.JWTExpired) {
    return words.expired;
  }
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') {
      return words.wrongAudience;
    }
    if (err.claim === 'iss') {
      return words.wrongIssuer;
    }
  }
  return words.invalid;
}
