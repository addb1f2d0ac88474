import { z } from 'zod';
import { Role } from './auth';
import { Id } from './input';

// Single sign-on with OpenID Connect (docs/product/sign-in.md#single-sign-on): providers the
// operator configures for the whole server (Microsoft Entra ID, one generic provider such as Okta)
// and one provider per organisation, set on the SSO screen, with just-in-time membership and
// group-to-role mapping. A client secret is stored encrypted and never answered after it is set.

export const SSO_DOMAINS_MAX = 20;
export const SSO_MAPPINGS_MAX = 50;
export const SSO_CLAIM_NAME_MAX = 100;
export const SSO_GROUP_MAX = 200;
export const SSO_SECRET_MAX = 1000;
/** How long a started sign-in may take at the provider before it must be started again. */
export const SSO_FLOW_TTL_SECONDS = 10 * 60;
/** Where the provider sends the browser back (the redirect URI every provider registers). */
export const SSO_CALLBACK_PATH = '/api/customer/auth/oidc/callback';
/** The web app's page the callback lands on, with `#sso_token=…` or `#sso_error=…` in the fragment. */
export const SSO_LANDING_PATH = '/login';

export const ssoMessages = {
  providerNotFound: 'Single sign-on is not set up for this organization',
  allSitesOnly: 'Only an administrator of all sites manages single sign-on',
  domainUnknown: 'No organization signs in with single sign-on for this e-mail domain. Use another sign-in.',
  microsoftDisabled: 'Microsoft sign-in is not configured on this server',
  oidcDisabled: 'Single sign-on is not configured on this server',
  emailRequired: 'Enter your work e-mail address',
  issuerUrl: 'The issuer must be an https:// URL (http:// only for a provider on this machine)',
  discoveryFailed: (issuer: string) =>
    `Could not read the provider's configuration from ${issuer}/.well-known/openid-configuration`,
  discoveryIssuerMismatch: "The provider's configuration names another issuer",
  secretRequired: 'Enter the client secret',
  domainInvalid: (domain: string) => `"${domain}" is not an e-mail domain (such as example.com)`,
  domainsRequired: 'Add at least one allowed e-mail domain',
  domainTaken: (domain: string) => `Another organization already signs in with single sign-on for ${domain}`,
  sitesNotFound: (ids: number[]) => `Site${ids.length === 1 ? '' : 's'} not found: ${ids.join(', ')}`,
  flowExpired: 'The sign-in took too long or was started in another browser. Please sign in again.',
  providerRefused: (error: string) => `The identity provider refused the sign-in: ${error}`,
  codeExchangeFailed: 'The identity provider did not accept the sign-in code',
  tokenInvalid: 'The sign-in token could not be verified',
  tokenWrongAudience: 'The sign-in token was issued for another application',
  tokenWrongIssuer: 'The sign-in token was not issued by the expected provider',
  tokenExpired: 'The sign-in token has expired. Please sign in again.',
  tokenWrongNonce: 'The sign-in token does not belong to this sign-in. Please sign in again.',
  emailUnverified: 'Your e-mail address is not verified by the identity provider',
  domainNotAllowed: (domain: string) => `E-mail addresses at ${domain} may not sign in to this organization`,
  notMember:
    'You are not a member of this organization. Ask an administrator to invite you, or to let people from your domain join.',
} as const;

/** One group (or role) claim value and what it gives: a role, and all sites or these sites. */
export const SsoRoleMapping = z.object({
  group: z.string().trim().min(1).max(SSO_GROUP_MAX),
  role: Role,
  /** null: all sites */
  site_ids: z.array(Id).max(500).nullable(),
});
export type SsoRoleMapping = z.infer<typeof SsoRoleMapping>;

export const SsoProvider = z.object({
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  allowed_domains: z.array(z.string()),
  jit_enabled: z.boolean(),
  default_role: Role,
  groups_claim: z.string().nullable(),
  mappings: z.array(SsoRoleMapping),
  redirect_uri: z.string(),
  updated_at: z.string(),
});
export type SsoProvider = z.infer<typeof SsoProvider>;

export const SsoProviderResponse = z.object({ provider: SsoProvider.nullable(), redirect_uri: z.string() });
export type SsoProviderResponse = z.infer<typeof SsoProviderResponse>;

/** an e-mail domain such as example.com (lower-case; at most 253 characters) */
const DOMAIN_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(DOMAIN_PATTERN, { error: (issue) => ssoMessages.domainInvalid(String(issue.input)) });

/** https://…, or http:// for a provider on this machine (a test or a local Keycloak) */
const ISSUER_PATTERN = /^(https:\/\/[^\s]+|http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:[0-9]+)?(\/[^\s]*)?)$/;

export const SsoProviderBody = z.object({
  issuer: z
    .string()
    .trim()
    .max(500)
    .regex(ISSUER_PATTERN, { error: ssoMessages.issuerUrl })
    .transform((v) => v.replace(/\/+$/, '')),
  client_id: z.string().trim().min(1).max(500),
  /** omitted: keep the stored secret (required when none is stored) */
  client_secret: z.string().min(1).max(SSO_SECRET_MAX).optional(),
  allowed_domains: z.array(domain).min(1, ssoMessages.domainsRequired).max(SSO_DOMAINS_MAX),
  jit_enabled: z.boolean(),
  default_role: Role,
  groups_claim: z.string().trim().max(SSO_CLAIM_NAME_MAX).nullable(),
  mappings: z.array(SsoRoleMapping).max(SSO_MAPPINGS_MAX),
});
export type SsoProviderBody = z.infer<typeof SsoProviderBody>;

export const SSO_START_PROVIDERS = ['microsoft', 'oidc', 'organization'] as const;
export const SsoStartBody = z.object({
  provider: z.enum(SSO_START_PROVIDERS),
  /** organization: the work e-mail whose domain picks the organisation's provider */
  email: z.email().max(320).optional(),
});
export type SsoStartBody = z.infer<typeof SsoStartBody>;
export const SsoStartResult = z.object({ authorize_url: z.string() });
export type SsoStartResult = z.infer<typeof SsoStartResult>;
