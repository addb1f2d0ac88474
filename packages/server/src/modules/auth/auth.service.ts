import type { ProfileUpdateBody, SessionUser, SignInResult, TenantOption } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { userAuditSites, writeAudit } from '../../lib/audit';
import { notFound, unauthorized } from '../../lib/errors';
import { isLoopbackAddress } from '../../lib/trust-proxy';
import type { RequestContext } from '../../lib/context';
import { SESSION_TOKEN_TTL_SECONDS } from '@outpost/contract/limits';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Executor } from '../../lib/db';
import {
  findMembership,
  findMembershipsOf,
  listDevLoginUsers,
  listUserSiteIds,
  toSessionUser,
} from './auth.queries';
import type { Membership } from './auth.queries';
import { DEV_ISSUER, upsertIdentity } from './identities.queries';
import { bindInvitations, setMemberName, updateMemberProfile } from '../users/members.service';
import type { AssertedIdentity } from './identities.queries';
import { deleteDeadSessions, insertSession, revokeSession } from './sessions.queries';
import { consumeSignInLink, insertSignInLink } from './sign-in-links.queries';
import type { SessionTokens } from './session-token';

type Meta = { ip: string; userAgent: string | null };
/**
 * An organisation's own identity provider signs people in to that organisation only
 * (docs/decisions/2026-11-27-oidc-sign-in.md): it binds its invitations and lands there.
 */
export type SignInOnly = { tenantId: number; notMember: string };

const contextOf = (m: Membership, identityId: number, meta: Meta): RequestContext => ({
  sessionId: null,
  identityId,
  userId: m.id,
  tenantId: m.tenant_id,
  tenantName: m.tenant_name,
  email: m.email,
  name: m.name,
  role: m.role,
  siteAccessType: m.site_access_type,
  siteIds: [],
  ip: meta.ip,
  userAgent: meta.userAgent,
});

/** The member's sites, so their own entries are read by the administrators of those sites (R2-9). */
async function withSites(tx: Executor, ctx: RequestContext): Promise<RequestContext> {
  return ctx.siteAccessType === 'specific' ? { ...ctx, siteIds: await listUserSiteIds(tx, ctx.userId) } : ctx;
}

/** A new server-side session for this membership, and its token. */
async function issueFor(
  tokens: SessionTokens,
  tx: Executor,
  m: Membership,
  identityId: number,
): Promise<SignInResult> {
  const sessionId = randomUUID();
  await insertSession(tx, {
    id: sessionId,
    identityId,
    userId: m.id,
    tenantId: m.tenant_id,
    ttlSeconds: SESSION_TOKEN_TTL_SECONDS,
  });
  const token = await tokens.issue({
    userId: m.id,
    tenantId: m.tenant_id,
    role: m.role,
    sessionId,
    identityId,
  });
  return { token, user: toSessionUser(m) };
}

/** `signIn` of the auth service: binds open invitations, audits, and opens a session. */
async function signInIdentity(
  db: Db,
  tokens: SessionTokens,
  who: AssertedIdentity,
  meta: Meta,
  method: string,
  only?: SignInOnly,
): Promise<SignInResult> {
  return db.transaction(async (tx) => {
    const identityId = await upsertIdentity(tx, who);
    await bindInvitations(tx, identityId, who.email, only?.tenantId);
    const memberships = await findMembershipsOf(tx, identityId);
    const first = only ? memberships.find((m) => m.tenant_id === only.tenantId) : memberships[0];
    if (!first) {
      // No tenant to write an audit entry into: the server log keeps the refusal.
      throw unauthorized(only?.notMember ?? messages.notInvited, 'NOT_INVITED');
    }
    await deleteDeadSessions(tx, identityId);
    if (!first.name && who.name) {
      await setMemberName(tx, first.id, who.name);
      first.name = who.name;
    }
    const actor = await withSites(tx, contextOf(first, identityId, meta));
    await writeAudit(tx, actor, {
      action: 'Login',
      siteIds: userAuditSites(actor),
      resourceType: 'user',
      resourceId: first.id,
      details: `Signed in with ${method}`,
    });
    return issueFor(tokens, tx, first, identityId);
  });
}

export type AuthServiceDeps = { db: Db; tokens: SessionTokens };

export function createAuthService({ db, tokens }: AuthServiceDeps) {
  return {
    /** The members the sign-in screen offers for dev sign-in (GET /config, where it is allowed). */
    devLoginUsers: () => listDevLoginUsers(db),

    /**
     * Sign-in for an identity already verified (an OpenID Connect ID token or dev sign-in). Open
     * invitations for its verified e-mail are bound to it first (SECURITY.md R2-1); then the person
     * lands in their first organisation and the switcher offers the others.
     */
    async signIn(
      who: AssertedIdentity,
      meta: Meta,
      method: string,
      only?: SignInOnly,
    ): Promise<SignInResult> {
      return signInIdentity(db, tokens, who, meta, method, only);
    },

    /** Dev sign-in (POST /auth/dev, where the route allows it): the e-mail is the identity. */
    async signInDev(email: string, meta: Meta): Promise<SignInResult> {
      const address = email.toLowerCase();
      const who = { issuer: DEV_ISSUER, subject: address, email: address, name: null };
      return signInIdentity(db, tokens, who, meta, 'dev sign-in');
    },

    /**
     * A one-time link's sign-in (made by `npm run outpost -- sign-in-link`): the operator of this
     * machine vouched for the e-mail, as dev sign-in does, so it signs in through the same provider.
     */
    async signInWithLink(secret: string, meta: Meta): Promise<SignInResult> {
      const email = await consumeSignInLink(db, sha256(secret));
      if (!email) {
        throw unauthorized(messages.signInLinkInvalid, 'SIGN_IN_LINK_INVALID');
      }
      return this.signIn({ issuer: DEV_ISSUER, subject: email, email, name: null }, meta, 'a sign-in link');
    },

    /** Sign-out (a deliberate addition to the product's client-only rule): the session ends here too. */
    async signOut(ctx: RequestContext): Promise<void> {
      const sessionId = ctx.sessionId;
      if (!sessionId) {
        return;
      }
      await db.transaction(async (tx) => {
        await revokeSession(tx, sessionId);
        await writeAudit(tx, ctx, {
          action: 'Logout',
          siteIds: userAuditSites(ctx),
          resourceType: 'user',
          resourceId: ctx.userId,
          details: 'Signed out',
        });
      });
    },

    // Any signed-in user may read and change their own profile: it is scoped to their own row.
    async getProfile(ctx: RequestContext): Promise<SessionUser> {
      const m = await findMembership(db, ctx.userId, ctx.tenantId);
      if (!m) {
        throw unauthorized(messages.tokenInvalid, 'INVALID_SESSION');
      }
      return toSessionUser(m);
    },

    async updateProfile(ctx: RequestContext, body: ProfileUpdateBody): Promise<SessionUser> {
      const before = await this.getProfile(ctx);
      const patch = {
        ...(body.name !== undefined && { name: body.name || null }),
        ...(body.company !== undefined && { company: body.company || null }),
        ...(body.notification_prefs !== undefined && { notificationPrefs: body.notification_prefs }),
      };
      await db.transaction(async (tx) => {
        await updateMemberProfile(tx, ctx, patch);
        await writeAudit(tx, ctx, {
          action: 'Update Profile',
          siteIds: userAuditSites(ctx),
          resourceType: 'user',
          resourceId: ctx.userId,
          oldValues: {
            name: before.name,
            company: before.company,
            notification_prefs: before.notification_prefs,
          },
          newValues: body,
        });
      });
      return this.getProfile(ctx);
    },

    // The caller's own memberships, by their identity: no field a tenant can edit decides them.
    async listTenants(ctx: RequestContext): Promise<TenantOption[]> {
      const memberships = ctx.identityId === null ? [] : await findMembershipsOf(db, ctx.identityId);
      return memberships.map((m) => ({
        id: m.tenant_id,
        tenant_name: m.tenant_name,
        plan: m.plan,
        role: m.role,
        is_current: m.tenant_id === ctx.tenantId,
      }));
    },

    // Only a tenant where the caller's identity has a membership; any other id is 404. The session
    // moves: the old one is revoked, a new one is made for the target membership.
    async switchTenant(ctx: RequestContext, tenantId: number): Promise<SignInResult> {
      const identityId = ctx.identityId;
      const target =
        identityId === null
          ? undefined
          : (await findMembershipsOf(db, identityId)).find((m) => m.tenant_id === tenantId);
      if (!target || identityId === null) {
        throw notFound(messages.tenantNotFound, 'TENANT_NOT_FOUND');
      }
      return db.transaction(async (tx) => {
        const actor = await withSites(tx, contextOf(target, identityId, ctx));
        await writeAudit(tx, actor, {
          action: 'Switch Organization',
          siteIds: userAuditSites(actor),
          resourceType: 'user',
          resourceId: target.id,
          details: `Switched from ${ctx.tenantName}`,
        });
        if (ctx.sessionId) {
          await revokeSession(tx, ctx.sessionId);
        }
        return issueFor(tokens, tx, target, identityId);
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export type DevSignInCaller = { ip: string; headers: Record<string, unknown> };
export type DevSignInPolicy = Pick<Config, 'devLogin' | 'trustProxy'>;

/**
 * Whether this caller may use password-less dev sign-in (SECURITY.md R2-7). A server cannot tell a
 * proxy on its own machine that adds no header from a local browser, so addresses alone never
 * turn it on: it must be enabled (OUTPOST_ALLOW_DEV_LOGIN=1, which `npm start` sets), and it stays
 * refused behind any proxy Outpost knows of (TRUST_PROXY) or that announces itself (a forwarding
 * header), and to any caller whose own address is not loopback.
 */
export function devSignInAllowed(policy: DevSignInPolicy, caller: DevSignInCaller): boolean {
  if (!policy.devLogin || policy.trustProxy !== false) {
    return false;
  }
  const isProxied = FORWARDING_HEADERS.some((h) => caller.headers[h] !== undefined);
  return isLoopbackAddress(caller.ip) && !isProxied;
}

/** Link secrets last this long. */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Makes a one-time sign-in link's secret for this e-mail (the CLI prints the link). */
export async function createSignInLink(db: Db, email: string): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await insertSignInLink(db, {
    tokenHash: sha256(secret),
    email: email.toLowerCase(),
    ttlSeconds: SIGN_IN_LINK_TTL_SECONDS,
  });
  return secret;
}

/**
 * A signed-in session for a member, for tools that sign in without a browser (the benchmarks): the
 * member's e-mail signs in through the dev identity provider, as `POST /auth/dev` would.
 */
export async function openToolSession(db: Db, tokens: SessionTokens, email: string): Promise<string> {
  const who = { issuer: DEV_ISSUER, subject: email.toLowerCase(), email: email.toLowerCase(), name: null };
  const result = await createAuthService({ db, tokens }).signIn(
    who,
    { ip: '127.0.0.1', userAgent: null },
    'a tool',
  );
  return result.token;
}
