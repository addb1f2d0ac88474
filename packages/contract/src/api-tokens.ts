import { z } from 'zod';
import { IdParam } from './input';

// API tokens for automation (docs/product/administration.md#api-tokens). An administrator creates
// one with a name, scopes, an optional site limit and an expiry; the secret is shown once and only
// its sha256 is kept. A script sends it as `Authorization: Bearer opt_api_…` to the same
// /api/customer routes the portal uses: a GET or HEAD needs the read scope of the route's area,
// anything else its write scope. Routes of no area (the terminal, file transfers, sessions and
// profile, the tokens themselves) refuse every token (403 TOKEN_ROUTE_REFUSED).
//
// The live portal socket (WS /api/ws?tenantId&userId&token) accepts a token with devices:read;
// userId is then the id of the administrator who created the token (`created_by_id`).

/** The areas a token's scopes name; every /api/customer route belongs to one or is refused. */
export const API_TOKEN_AREAS = [
  'devices',
  'packages',
  'deployments',
  'scripts',
  'users',
  'sites',
  'audit',
  'alerts',
] as const;
export type ApiTokenArea = (typeof API_TOKEN_AREAS)[number];

export const API_TOKEN_ACCESS = ['read', 'write'] as const;
export type ApiTokenAccess = (typeof API_TOKEN_ACCESS)[number];

/** Every scope a token may hold: `<area>:read` or `<area>:write` (write does not imply read). */
export const API_TOKEN_SCOPES = API_TOKEN_AREAS.flatMap((area) =>
  API_TOKEN_ACCESS.map((access) => `${area}:${access}` as const),
);
export type ApiTokenScope = `${ApiTokenArea}:${ApiTokenAccess}`;

/** What every token starts with, so secret scanners (and people) recognise one. */
export const API_TOKEN_PREFIX = 'opt_api_';

/** Limits of a token's fields. */
export const API_TOKEN_LIMITS = {
  nameMax: 100,
  /** the longest a token may live, in days; no expiry at all is allowed too */
  maxDays: 366,
} as const;

/** The words of the API tokens screen and of every refusal a token meets (one source). */
export const apiTokenMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be ${API_TOKEN_LIMITS.nameMax} characters or less`,
  scopesRequired: 'Choose at least one scope',
  scopeUnknown: 'Unknown scope',
  expiresInPast: 'The expiry must be in the future',
  expiresTooFar: `A token may live at most ${API_TOKEN_LIMITS.maxDays} days`,
  siteNotFound: 'Site not found',
  siteOutsideScope: 'You can only limit a token to your own sites',
  notFound: 'API token not found',
  /** a token on a route no token may call (docs/product/administration.md#api-tokens) */
  routeRefused: 'API tokens cannot be used for this action; sign in to the portal instead.',
  /** a token without the scope a route needs */
  scopeMissing: (scope: string) => `This API token lacks the ${scope} scope.`,
  rateLimited: 'Too many requests with this API token. Wait a minute and try again.',
  invalid: 'This API token is invalid, expired or revoked.',
  // the screen
  title: 'API tokens',
  intro:
    'Tokens let scripts and other systems call the Outpost API. Each token has only the scopes you give it.',
  created: 'API token created',
  copyOnce: 'Copy the token now: it is shown only once and cannot be shown again.',
  revoked: 'API token revoked',
  revokeConfirm: (name: string) =>
    `Revoke the token "${name}"? Scripts using it stop working at once. This cannot be undone.`,
  listLoad: 'Failed to load API tokens',
  empty: 'No API tokens yet',
} as const;

const ScopeSchema = z.enum(API_TOKEN_SCOPES as [ApiTokenScope, ...ApiTokenScope[]], {
  error: apiTokenMessages.scopeUnknown,
});

export const CreateApiTokenBody = z.object({
  name: z
    .string({ error: apiTokenMessages.nameRequired })
    .trim()
    .min(1, apiTokenMessages.nameRequired)
    .max(API_TOKEN_LIMITS.nameMax, apiTokenMessages.nameTooLong),
  scopes: z
    .array(ScopeSchema, { error: apiTokenMessages.scopesRequired })
    .min(1, apiTokenMessages.scopesRequired),
  /** the sites the token is limited to; omitted, null or empty: every site its creator sees */
  site_ids: z.array(IdParam).max(200).nullable().optional(),
  /** ISO timestamp; null or omitted means the token does not expire */
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO date-time' })
    .nullable()
    .optional(),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

export const API_TOKEN_STATES = ['active', 'expired', 'revoked'] as const;
export type ApiTokenState = (typeof API_TOKEN_STATES)[number];

export const ApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  /** the first characters of the token, to recognise it */
  token_prefix: z.string(),
  scopes: z.array(ScopeSchema),
  /** null: every site of its creator */
  site_ids: z.array(z.number().int()).nullable(),
  state: z.enum(API_TOKEN_STATES),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  /** the address the token was last used from */
  last_used_ip: z.string().nullable(),
  /** the administrator the token acts for (and the userId of its portal socket) */
  created_by_id: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const CreatedApiToken = ApiToken.extend({
  /** the secret, shown once */
  token: z.string(),
});
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const ApiTokenListResponse = z.array(ApiToken);
export type ApiTokenListResponse = z.infer<typeof ApiTokenListResponse>;

export const ApiTokenIdParams = z.object({ id: IdParam });
