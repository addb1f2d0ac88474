import { timingSafeEqual } from 'node:crypto';
import type { SignInResult } from '@outpost/contract/auth';
import { SSO_FLOW_TTL_SECONDS, ssoMessages } from '@outpost/contract/sso';
import type { SsoStartBody } from '@outpost/contract/sso';
import type { Db } from '../../db/client';
import { forbidden, notFound, unauthorized } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { AuthService } from '../auth/auth.service';
import type { SessionControl } from '../auth/sessions.service';
import type { OidcClient } from './oidc-client';
import { randomToken } from './oidc-client';
import type { OidcClientConfig, SsoConfig } from './sso-config';
import { applyMembership } from './sso-membership';
import { findProviderByDomain, findProviderOfTenant } from './sso.queries';
import type { SsoProviderRow } from './sso.queries';

// The browser flow (docs/product/sign-in.md#single-sign-on): start builds the authorize URL and
// keeps state, nonce and the PKCE verifier in a sealed, short-lived cookie; the callback checks
// them, exchanges the code, verifies the ID token and signs in as Google sign-in does.

type Meta = { ip: string; userAgent: string | null };

/** `microsoft`, `oidc`, or `t:<tenant id>` for an organisation's own provider. */
type ProviderKey = string;
type Resolved = {
  key: ProviderKey;
  label: string;
  client: OidcClientConfig;
  emailVerifiedClaims?: string[];
  tenant: SsoProviderRow | null;
};
type FlowCookie = { k: ProviderKey; s: string; n: string; v: string; r: string; x: number };

export const FLOW_COOKIE = 'outpost_sso';

// Entra ID sends no email_verified; xms_edov says the e-mail's domain is the tenant's own verified one.
const ENTRA_VERIFIED = ['email_verified', 'xms_edov'];

export type SsoSignInDeps = {
  db: Db;
  sso: SsoConfig;
  auth: AuthService;
  client: OidcClient;
  /** createSecretBox(secret, 'sso client secrets') */
  secrets: SecretBox;
  /** createSecretBox(secret, 'sso sign-in flow') */
  flows: SecretBox;
  /** the revocation of a member's sessions when their access changes, and its announcement */
  sessions: SessionControl;
};

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function createSsoSignIn(deps: SsoSignInDeps) {
  const { db, sso, client } = deps;

  function tenantResolved(row: SsoProviderRow): Resolved {
    const secret = deps.secrets.open(row.clientSecretSealed);
    if (secret === null) {
      throw forbidden(ssoMessages.providerNotFound, 'SSO_SECRET_UNREADABLE');
    }
    return {
      key: `t:${row.tenantId}`,
      label: 'single sign-on',
      client: { issuer: row.issuer, clientId: row.clientId, clientSecret: secret },
      tenant: row,
    };
  }

  async function resolve(key: ProviderKey): Promise<Resolved> {
    if (key === 'microsoft' && sso.microsoft) {
      return {
        key,
        label: 'Microsoft',
        client: sso.microsoft,
        emailVerifiedClaims: ENTRA_VERIFIED,
        tenant: null,
      };
    }
    if (key === 'oidc' && sso.oidc) {
      return { key, label: sso.oidc.name, client: sso.oidc, tenant: null };
    }
    const tenantId = /^t:(\d+)$/.exec(key)?.[1];
    const row = tenantId ? await findProviderOfTenant(db, Number(tenantId)) : null;
    if (!row) {
      throw unauthorized(ssoMessages.flowExpired, 'SSO_FLOW_EXPIRED');
    }
    return tenantResolved(row);
  }

  async function resolveStart(body: SsoStartBody): Promise<Resolved> {
    switch (body.provider) {
      case 'microsoft':
        if (!sso.microsoft) {
          throw forbidden(ssoMessages.microsoftDisabled, 'MICROSOFT_DISABLED');
        }
        return resolve('microsoft');
      case 'oidc':
        if (!sso.oidc) {
          throw forbidden(ssoMessages.oidcDisabled, 'OIDC_DISABLED');
        }
        return resolve('oidc');
      case 'organization': {
        const domain = body.email?.split('@')[1]?.toLowerCase();
        if (!domain) {
          throw notFound(ssoMessages.emailRequired, 'SSO_EMAIL_REQUIRED');
        }
        const row = await findProviderByDomain(db, domain);
        if (!row) {
          throw notFound(ssoMessages.domainUnknown, 'SSO_DOMAIN_UNKNOWN');
        }
        return tenantResolved(row);
      }
    }
  }

  return {
    /** the provider's authorize URL, and the sealed cookie that keeps this sign-in's secrets */
    async start(body: SsoStartBody, redirectUri: string): Promise<{ url: string; cookie: string }> {
      const provider = await resolveStart(body);
      const flow: FlowCookie = {
        k: provider.key,
        s: randomToken(),
        n: randomToken(),
        v: randomToken(),
        r: redirectUri,
        x: Math.floor(Date.now() / 1000) + SSO_FLOW_TTL_SECONDS,
      };
      const url = await client.authorizeUrl(provider.client, {
        redirectUri,
        state: flow.s,
        nonce: flow.n,
        verifier: flow.v,
        ...(body.email && { loginHint: body.email }),
      });
      return { url, cookie: deps.flows.seal(JSON.stringify(flow)) };
    },

    async finish(
      query: { code?: string; state?: string; error?: string; error_description?: string },
      cookie: string | undefined,
      meta: Meta,
    ): Promise<SignInResult> {
      if (query.error) {
        throw unauthorized(
          ssoMessages.providerRefused(query.error_description ?? query.error),
          'SSO_REFUSED',
        );
      }
      const opened = cookie ? deps.flows.open(cookie) : null;
      const flow = opened ? (JSON.parse(opened) as FlowCookie) : null;
      if (
        !flow ||
        flow.x < Date.now() / 1000 ||
        !query.state ||
        !query.code ||
        !sameText(flow.s, query.state)
      ) {
        throw unauthorized(ssoMessages.flowExpired, 'SSO_FLOW_EXPIRED');
      }
      const provider = await resolve(flow.k);
      const who = await client.finish(
        provider.client,
        { redirectUri: flow.r, code: query.code, nonce: flow.n, verifier: flow.v },
        provider.emailVerifiedClaims ? { emailVerifiedClaims: provider.emailVerifiedClaims } : undefined,
      );
      if (!provider.tenant) {
        return deps.auth.signIn(who, meta, provider.label);
      }
      return signInToTenant(deps, provider.tenant, who, meta);
    },
  };
}

async function signInToTenant(
  deps: SsoSignInDeps,
  tenant: SsoProviderRow,
  who: Awaited<ReturnType<OidcClient['finish']>>,
  meta: Meta,
): Promise<SignInResult> {
  const domain = who.email.split('@')[1] ?? '';
  if (!tenant.allowedDomains.includes(domain)) {
    throw forbidden(ssoMessages.domainNotAllowed(domain), 'SSO_DOMAIN_NOT_ALLOWED');
  }
  const ended = await deps.db.transaction((tx) => applyMembership(tx, tenant, who, meta, deps.sessions));
  await deps.sessions.announceEnded(ended);
  return deps.auth.signIn(who, meta, 'single sign-on', {
    tenantId: tenant.tenantId,
    notMember: ssoMessages.notMember,
  });
}

export type SsoSignIn = ReturnType<typeof createSsoSignIn>;
