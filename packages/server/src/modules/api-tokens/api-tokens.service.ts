import crypto from 'node:crypto';
import { API_TOKEN_LIMITS, API_TOKEN_PREFIX, apiTokenMessages } from '@outpost/contract/api-tokens';
import type {
  ApiToken,
  ApiTokenScope,
  CreateApiTokenBody,
  CreatedApiToken,
} from '@outpost/contract/api-tokens';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import type { SessionControl } from '../auth/sessions.service';
import {
  findApiToken,
  findLiveTokenByHash,
  findMemberSiteIds,
  findTenantSiteIds,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  touchApiToken,
} from './api-tokens.queries';

// API tokens for automation (docs/product/administration.md#api-tokens). A token acts for the
// administrator who created it, narrowed to its scopes (plugins/auth.ts checks them on every
// request) and its sites (the same rule as a site-limited user, lib/scope.ts). It stops working
// when revoked, when it expires, or when its creator is no longer an administrator here.

/** sha256 of the secret: the secret is 256 random bits, so a fast hash is right (nothing to guess). */
export const hashApiToken = (token: string) =>
  crypto.createHash('sha256').update(token, 'utf8').digest('hex');

export const isApiTokenSecret = (token: string) => token.startsWith(API_TOKEN_PREFIX);

const newSecret = () => API_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');

/** What the list shows to recognise a token: the prefix and the first characters after it. */
const prefixOf = (token: string) => token.slice(0, API_TOKEN_PREFIX.length + 6);

/** How the audit trail and every record a token makes name it (and who created it). */
export const tokenActorName = (tokenName: string, creator: string) =>
  `API token "${tokenName}" (created by ${creator})`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A token of sites a site-limited administrator holds all of; others' tokens are not theirs to see. */
const isVisibleTo = (ctx: RequestContext, token: Pick<ApiToken, 'site_ids'>) =>
  !isSiteLimited(ctx) ||
  (token.site_ids !== null &&
    token.site_ids.length > 0 &&
    token.site_ids.every((s) => ctx.siteIds.includes(s)));

export type ApiTokensServiceDeps = {
  db: Db;
  /** re-checks the portal sockets of a token's creator at once, so a revoked token's close (4401) */
  sessions: Pick<SessionControl, 'announceEnded'>;
};

export function createApiTokensService(deps: ApiTokensServiceDeps) {
  const { db } = deps;

  async function checkedSites(
    ctx: RequestContext,
    siteIds: number[] | null | undefined,
  ): Promise<number[] | null> {
    const wanted = [...new Set(siteIds ?? [])];
    if (wanted.length === 0) {
      // a site-limited administrator's token is limited to their sites
      return isSiteLimited(ctx) ? [...ctx.siteIds] : null;
    }
    const found = await findTenantSiteIds(db, ctx, wanted);
    if (found.length !== wanted.length) {
      throw badRequest(apiTokenMessages.siteNotFound, 'SITE_NOT_FOUND');
    }
    if (isSiteLimited(ctx) && !wanted.every((s) => ctx.siteIds.includes(s))) {
      throw forbidden(apiTokenMessages.siteOutsideScope, 'SITE_OUTSIDE_SCOPE');
    }
    return wanted.sort((a, b) => a - b);
  }

  function checkedExpiry(expiresAt: string | null | undefined, now: Date): Date | null {
    if (!expiresAt) {
      return null;
    }
    const at = new Date(expiresAt);
    if (at <= now) {
      throw badRequest(apiTokenMessages.expiresInPast, 'EXPIRES_IN_PAST');
    }
    if (at.getTime() - now.getTime() > API_TOKEN_LIMITS.maxDays * DAY_MS) {
      throw badRequest(apiTokenMessages.expiresTooFar, 'EXPIRES_TOO_FAR');
    }
    return at;
  }

  return {
    async create(ctx: RequestContext, body: CreateApiTokenBody): Promise<CreatedApiToken> {
      requireAdmin(ctx);
      const siteIds = await checkedSites(ctx, body.site_ids);
      const expiresAt = checkedExpiry(body.expires_at, new Date());
      const scopes = [...new Set(body.scopes)];
      const token = newSecret();
      const id = await db.transaction(async (tx) => {
        const tokenId = await insertApiToken(tx, {
          tenantId: ctx.tenantId,
          name: body.name,
          tokenHash: hashApiToken(token),
          tokenPrefix: prefixOf(token),
          scopes,
          siteIds,
          createdBy: ctx.userId,
          createdByName: ctx.name ?? ctx.email,
          expiresAt,
        });
        await writeAudit(tx, ctx, {
          action: 'Create API Token',
          resourceType: 'api_token',
          resourceId: tokenId,
          newValues: {
            name: body.name,
            scopes,
            site_ids: siteIds,
            expires_at: expiresAt?.toISOString() ?? null,
          },
          siteIds,
        });
        return tokenId;
      });
      const created = await findApiToken(db, ctx, id);
      if (!created) {
        throw new Error(`api token ${id} vanished after its insert`);
      }
      return { ...created, token };
    },

    async list(ctx: RequestContext): Promise<ApiToken[]> {
      requireAdmin(ctx);
      return (await listApiTokens(db, ctx)).filter((t) => isVisibleTo(ctx, t));
    },

    // Takes effect at once: every request reads the token, and its creator's portal sockets are
    // re-checked right after the commit (a socket of the token closes with 4401).
    async revoke(ctx: RequestContext, id: number): Promise<ApiToken> {
      requireAdmin(ctx);
      const before = await findApiToken(db, ctx, id);
      if (!before || !isVisibleTo(ctx, before)) {
        throw notFound(apiTokenMessages.notFound, 'API_TOKEN_NOT_FOUND');
      }
      if (before.revoked_at === null) {
        await db.transaction(async (tx) => {
          await revokeApiToken(tx, ctx, id);
          await writeAudit(tx, ctx, {
            action: 'Revoke API Token',
            resourceType: 'api_token',
            resourceId: id,
            details: before.name,
            oldValues: { state: before.state },
            newValues: { state: 'revoked' },
            siteIds: before.site_ids,
          });
        });
        if (before.created_by_id !== null) {
          await deps.sessions.announceEnded([before.created_by_id]);
        }
      }
      const after = await findApiToken(db, ctx, id);
      if (!after) {
        throw notFound(apiTokenMessages.notFound, 'API_TOKEN_NOT_FOUND');
      }
      return after;
    },
  };
}

/**
 * The caller a token stands for, or null (not a token, unknown, revoked, expired, or its creator
 * is no longer an administrator here). Read on every request, so a revocation takes effect at once.
 */
export async function resolveApiToken(
  db: Db,
  token: string,
  meta: { ip: string; userAgent: string | null },
): Promise<RequestContext | null> {
  if (!isApiTokenSecret(token)) {
    return null;
  }
  const row = await findLiveTokenByHash(db, hashApiToken(token));
  if (!row) {
    return null;
  }
  // a token's sites narrow its creator's: the same rule as a site-limited user (lib/scope.ts)
  const creatorSites = row.siteAccessType === 'specific' ? await findMemberSiteIds(db, row.userId) : null;
  const tokenSites = row.siteIds && row.siteIds.length > 0 ? row.siteIds : null;
  const siteIds =
    tokenSites && creatorSites
      ? tokenSites.filter((s) => creatorSites.includes(s))
      : (tokenSites ?? creatorSites);
  await touchApiToken(db, row.id, meta.ip);
  return {
    sessionId: null,
    identityId: row.identityId,
    userId: row.userId,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    email: row.email,
    name: tokenActorName(row.name, row.userName ?? row.email),
    role: row.role,
    siteAccessType: siteIds ? 'specific' : 'all',
    siteIds: siteIds ?? [],
    ip: meta.ip,
    userAgent: meta.userAgent,
    apiToken: { id: row.id, name: row.name, scopes: row.scopes as ApiTokenScope[], expiresAt: row.expiresAt },
  };
}

/** The live portal socket takes a token that may read devices (its events are about devices). */
export const portalTokenCaller = (ctx: RequestContext | null): RequestContext | null =>
  ctx?.apiToken?.scopes.includes('devices:read') ? ctx : null;

export type ApiTokensService = ReturnType<typeof createApiTokensService>;
