import { createHash, randomBytes } from 'node:crypto';
import { ssoMessages } from '@outpost/contract/sso';
import { badRequest, unauthorized } from '../../lib/errors';
import { createOidcVerifier } from '../auth/oidc-verifier';
import type { OidcVerifier, VerifiedIdentity, VerifierWords } from '../auth/oidc-verifier';
import type { OidcClientConfig } from './sso-config';

// The relying party of the authorization code flow with PKCE (docs/product/sign-in.md#single-sign-on):
// discovery from the issuer's /.well-known/openid-configuration, the authorize URL, and the code
// exchange with the client secret. The ID token is checked by auth/oidc-verifier.ts (signature
// from the provider's JWKS, issuer, audience, expiry, nonce), as Google's is.

export type Discovery = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
};

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

export const ssoWords: VerifierWords = {
  invalid: ssoMessages.tokenInvalid,
  wrongAudience: ssoMessages.tokenWrongAudience,
  wrongIssuer: ssoMessages.tokenWrongIssuer,
  expired: ssoMessages.tokenExpired,
  unverified: ssoMessages.emailUnverified,
  wrongNonce: ssoMessages.tokenWrongNonce,
};

/** A random URL-safe value (state, nonce, PKCE verifier): 256 bits from the operating system. */
export const randomToken = () => randomBytes(32).toString('base64url');
export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export type OidcClient = {
  /** the provider's configuration, read and cached for ten minutes */
  discover(issuer: string): Promise<Discovery>;
  authorizeUrl(
    client: OidcClientConfig,
    flow: { redirectUri: string; state: string; nonce: string; verifier: string; loginHint?: string },
  ): Promise<string>;
  /** exchanges the code and returns the verifier's identity (nonce checked) */
  finish(
    client: OidcClientConfig,
    flow: { redirectUri: string; code: string; nonce: string; verifier: string },
    options?: { emailVerifiedClaims?: string[] },
  ): Promise<VerifiedIdentity>;
};

export function createOidcClient(fetcher: typeof fetch = fetch): OidcClient {
  const discoveries = new Map<string, { at: number; value: Discovery }>();
  const verifiers = new Map<string, OidcVerifier>();

  async function discover(issuer: string): Promise<Discovery> {
    const cached = discoveries.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) {
      return cached.value;
    }
    let doc: Partial<Discovery>;
    try {
      const res = await fetcher(`${issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) {
        throw new Error(`HTTP ${res.status}`);
      }
      doc = (await res.json()) as Partial<Discovery>;
    } catch {
      throw badRequest(ssoMessages.discoveryFailed(issuer), 'SSO_DISCOVERY_FAILED');
    }
    if (doc.issuer?.replace(/\/+$/, '') !== issuer) {
      throw badRequest(ssoMessages.discoveryIssuerMismatch, 'SSO_DISCOVERY_FAILED');
    }
    if (!doc.authorization_endpoint || !doc.token_endpoint || !doc.jwks_uri) {
      throw badRequest(ssoMessages.discoveryFailed(issuer), 'SSO_DISCOVERY_FAILED');
    }
    const value = doc as Discovery;
    discoveries.set(issuer, { at: Date.now(), value });
    return value;
  }

  function verifierFor(client: OidcClientConfig, d: Discovery, emailVerifiedClaims?: string[]): OidcVerifier {
    const key = `${d.jwks_uri}\n${d.issuer}\n${client.clientId}\n${(emailVerifiedClaims ?? []).join(',')}`;
    let verifier = verifiers.get(key);
    if (!verifier) {
      // The token's iss is compared with the discovery document's own spelling (a trailing slash included).
      verifier = createOidcVerifier({
        jwksUrl: d.jwks_uri,
        issuers: [client.issuer, d.issuer].filter((v, i, all) => all.indexOf(v) === i),
        audience: client.clientId,
        words: ssoWords,
        ...(emailVerifiedClaims && { emailVerifiedClaims }),
      });
      verifiers.set(key, verifier);
    }
    return verifier;
  }

  return {
    discover,
    async authorizeUrl(client, flow) {
      const d = await discover(client.issuer);
      const url = new URL(d.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', flow.redirectUri);
      url.searchParams.set('scope', 'openid email profile');
      url.searchParams.set('state', flow.state);
      url.searchParams.set('nonce', flow.nonce);
      url.searchParams.set('code_challenge', pkceChallenge(flow.verifier));
      url.searchParams.set('code_challenge_method', 'S256');
      if (flow.loginHint) {
        url.searchParams.set('login_hint', flow.loginHint);
      }
      return url.toString();
    },
    async finish(client, flow, options) {
      const d = await discover(client.issuer);
      const basic = Buffer.from(
        `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
      ).toString('base64');
      let idToken: unknown;
      try {
        const res = await fetcher(d.token_endpoint, {
          method: 'POST',
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
          headers: {
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: flow.code,
            redirect_uri: flow.redirectUri,
            code_verifier: flow.verifier,
          }).toString(),
        });
        idToken = res.ok ? ((await res.json()) as { id_token?: unknown }).id_token : undefined;
      } catch {
        idToken = undefined;
      }
      if (typeof idToken !== 'string') {
        throw unauthorized(ssoMessages.codeExchangeFailed, 'SSO_CODE_EXCHANGE_FAILED');
      }
      return verifierFor(client, d, options?.emailVerifiedClaims)(idToken, { nonce: flow.nonce });
    },
  };
}
