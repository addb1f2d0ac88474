import { ssoMessages } from '@outpost/contract/sso';
import type { SsoProvider, SsoProviderBody, SsoProviderResponse } from '@outpost/contract/sso';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { isAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import type { SecretBox } from '../../lib/secret-box';
import type { OidcClient } from './oidc-client';
import {
  deleteProvider,
  domainsTakenElsewhere,
  findProviderOfTenant,
  tenantSiteIds,
  upsertProvider,
} from './sso.queries';
import type { SsoProviderRow } from './sso.queries';

// The SSO screen's calls (docs/product/sign-in.md#the-sso-screen): an organisation's own provider,
// set by administrators of all sites only (it decides who may join and with which role). The
// client secret is sealed and never answered; every change is audited without it.

export type SsoServiceDeps = { db: Db; client: OidcClient; secrets: SecretBox };

const toProvider = (row: SsoProviderRow, redirectUri: string): SsoProvider => ({
  issuer: row.issuer,
  client_id: row.clientId,
  has_client_secret: row.clientSecretSealed !== '',
  allowed_domains: row.allowedDomains,
  jit_enabled: row.jitEnabled,
  default_role: row.defaultRole,
  groups_claim: row.groupsClaim,
  mappings: row.mappings,
  redirect_uri: redirectUri,
  updated_at: row.updatedAt.toISOString(),
});

/** What an audit entry keeps of the settings: everything but the secret. */
const audited = (p: SsoProvider | null) =>
  p ? { ...p, redirect_uri: undefined, updated_at: undefined } : null;

export function createSsoService({ db, client, secrets }: SsoServiceDeps) {
  function allSitesAdmin(ctx: RequestContext) {
    if (!isAdmin(ctx) || isSiteLimited(ctx)) {
      throw forbidden(ssoMessages.allSitesOnly, 'ALL_SITES_ONLY');
    }
  }

  async function read(ctx: RequestContext, redirectUri: string): Promise<SsoProviderResponse> {
    const row = await findProviderOfTenant(db, ctx.tenantId);
    return { provider: row ? toProvider(row, redirectUri) : null, redirect_uri: redirectUri };
  }

  async function checkBody(ctx: RequestContext, body: SsoProviderBody, existing: SsoProviderRow | null) {
    if (!body.client_secret && !existing) {
      throw badRequest(ssoMessages.secretRequired, 'SSO_SECRET_REQUIRED');
    }
    const domains = [...new Set(body.allowed_domains)];
    const taken = await domainsTakenElsewhere(db, ctx.tenantId, domains);
    if (taken[0]) {
      throw conflict(ssoMessages.domainTaken(taken[0]), 'SSO_DOMAIN_TAKEN');
    }
    const siteIds = [...new Set(body.mappings.flatMap((m) => m.site_ids ?? []))];
    const found = new Set(await tenantSiteIds(db, ctx.tenantId, siteIds));
    const missing = siteIds.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw notFound(ssoMessages.sitesNotFound(missing), 'SITE_NOT_FOUND');
    }
    // The issuer must answer discovery now, not at someone's first sign-in.
    await client.discover(body.issuer);
    return domains;
  }

  return {
    /** administrators of all sites: the organisation's provider, without its secret */
    async get(ctx: RequestContext, redirectUri: string): Promise<SsoProviderResponse> {
      allSitesAdmin(ctx);
      return read(ctx, redirectUri);
    },

    async put(ctx: RequestContext, body: SsoProviderBody, redirectUri: string): Promise<SsoProviderResponse> {
      allSitesAdmin(ctx);
      const existing = await findProviderOfTenant(db, ctx.tenantId);
      const domains = await checkBody(ctx, body, existing);
      const sealed = body.client_secret
        ? secrets.seal(body.client_secret)
        : (existing?.clientSecretSealed ?? '');
      await db.transaction(async (tx) => {
        await upsertProvider(tx, {
          tenantId: ctx.tenantId,
          issuer: body.issuer,
          clientId: body.client_id,
          clientSecretSealed: sealed,
          allowedDomains: domains,
          jitEnabled: body.jit_enabled,
          defaultRole: body.default_role,
          groupsClaim: body.groups_claim || null,
          mappings: body.mappings,
        });
        const after = await findProviderOfTenant(tx, ctx.tenantId);
        await writeAudit(tx, ctx, {
          action: existing ? 'Update SSO Provider' : 'Create SSO Provider',
          resourceType: 'sso_provider',
          resourceId: ctx.tenantId,
          details: body.client_secret && existing ? 'Client secret replaced' : null,
          oldValues: audited(existing ? toProvider(existing, redirectUri) : null),
          newValues: audited(after ? toProvider(after, redirectUri) : null),
        });
      });
      return read(ctx, redirectUri);
    },

    async remove(ctx: RequestContext, redirectUri: string): Promise<void> {
      allSitesAdmin(ctx);
      const existing = await findProviderOfTenant(db, ctx.tenantId);
      if (!existing) {
        throw notFound(ssoMessages.providerNotFound, 'SSO_PROVIDER_NOT_FOUND');
      }
      await db.transaction(async (tx) => {
        await deleteProvider(tx, ctx.tenantId);
        await writeAudit(tx, ctx, {
          action: 'Delete SSO Provider',
          resourceType: 'sso_provider',
          resourceId: ctx.tenantId,
          oldValues: audited(toProvider(existing, redirectUri)),
        });
      });
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
