import { z } from 'zod';

// Server-wide single sign-on (docs/operations.md#single-sign-on): the Microsoft Entra ID preset and
// one generic OpenID Connect provider (Okta, Keycloak, …). Each needs its issuer, client id and
// client secret; an incomplete one is a configuration error, not a silently missing button.

export type OidcClientConfig = { issuer: string; clientId: string; clientSecret: string };

export type SsoConfig = {
  /** Microsoft Entra ID (the sign-in screen's Microsoft button); null: the button stays "coming soon" */
  microsoft: OidcClientConfig | null;
  /** the generic provider and its button label ("Sign in with {name}") */
  oidc: (OidcClientConfig & { name: string }) | null;
  /** the address browsers reach this server at, for the redirect URI; null: taken from each request */
  publicUrl: string | null;
};

const text = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined);

export const SsoEnv = {
  ENTRA_TENANT_ID: text,
  ENTRA_CLIENT_ID: text,
  ENTRA_CLIENT_SECRET: text,
  /** the full issuer, for national clouds (and tests); default https://login.microsoftonline.com/{tenant}/v2.0 */
  ENTRA_ISSUER: text,
  OIDC_ISSUER: text,
  OIDC_CLIENT_ID: text,
  OIDC_CLIENT_SECRET: text,
  OIDC_NAME: text,
  OUTPOST_PUBLIC_URL: text.refine((v) => v === undefined || /^https?:\/\/[^/\s]+\/?$/.test(v), {
    message: 'OUTPOST_PUBLIC_URL must be the address browsers use, such as https://outpost.example.com',
  }),
};

type SsoEnvValues = { [K in keyof typeof SsoEnv]: string | undefined };

const trimIssuer = (issuer: string) => issuer.replace(/\/+$/, '');

/** The single sign-on part of the configuration; throws a message naming what is missing. */
export function ssoConfigFrom(e: SsoEnvValues): SsoConfig {
  const entraIssuer =
    e.ENTRA_ISSUER ??
    (e.ENTRA_TENANT_ID ? `https://login.microsoftonline.com/${e.ENTRA_TENANT_ID}/v2.0` : undefined);
  const anyEntra = e.ENTRA_TENANT_ID ?? e.ENTRA_ISSUER ?? e.ENTRA_CLIENT_ID ?? e.ENTRA_CLIENT_SECRET;
  if (anyEntra && !(entraIssuer && e.ENTRA_CLIENT_ID && e.ENTRA_CLIENT_SECRET)) {
    throw new Error(
      'Microsoft sign-in needs ENTRA_TENANT_ID (or ENTRA_ISSUER), ENTRA_CLIENT_ID and ENTRA_CLIENT_SECRET',
    );
  }
  const anyOidc = e.OIDC_ISSUER ?? e.OIDC_CLIENT_ID ?? e.OIDC_CLIENT_SECRET;
  if (anyOidc && !(e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET)) {
    throw new Error('Single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  return {
    microsoft:
      entraIssuer && e.ENTRA_CLIENT_ID && e.ENTRA_CLIENT_SECRET
        ? {
            issuer: trimIssuer(entraIssuer),
            clientId: e.ENTRA_CLIENT_ID,
            clientSecret: e.ENTRA_CLIENT_SECRET,
          }
        : null,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: trimIssuer(e.OIDC_ISSUER),
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME ?? 'SSO',
          }
        : null,
    publicUrl: e.OUTPOST_PUBLIC_URL?.replace(/\/$/, '') ?? null,
  };
}
