import type { ProfileUpdateBody, SessionUser, SignInResult, TenantOption } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { notFound, unauthorized } from '../../lib/errors';
import { isLoopbackAddress } from '../../lib/trust-proxy';
import type { RequestContext } from '../../plugins/auth';
import {
  findMembership,
  findMembershipsByEmail,
  setMemberName,
  toSessionUser,
  updateMemberProfile,
} from './auth.queries';
import type { Membership } from './auth.queries';
import type { SessionTokens } from './session-token';

type Meta = { ip: string; userAgent: string | null };

const contextOf = (m: Membership, meta: Meta): RequestContext => ({
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

export function createAuthService(db: Db, tokens: SessionTokens) {
  async function issueFor(m: Membership): Promise<SignInResult> {
    const token = await tokens.issue({ userId: m.id, tenantId: m.tenant_id, role: m.role });
    return { token, user: toSessionUser(m) };
  }

  return {
    /**
     * Sign-in for an identity already verified (Google ID token or dev sign-in). The person lands in
     * their first organisation; the switcher offers the others.
     */
    async signIn(
      email: string,
      nameFromProvider: string | null,
      meta: Meta,
      method: string,
    ): Promise<SignInResult> {
      const memberships = await findMembershipsByEmail(db, email);
      const first = memberships[0];
      if (!first) {
        // No tenant to write an audit entry into: the server log keeps the refusal.
        throw unauthorized(messages.notInvited, 'NOT_INVITED');
      }
      await db.transaction(async (tx) => {
        if (!first.name && nameFromProvider) {
          await setMemberName(tx, first.id, nameFromProvider);
          first.name = nameFromProvider;
        }
        await writeAudit(tx, contextOf(first, meta), {
          action: 'Login',
          resourceType: 'user',
          resourceId: first.id,
          details: `Signed in with ${method}`,
        });
      });
      return issueFor(first);
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

    // The caller's own memberships, by their e-mail: nothing of other people is listed.
    async listTenants(ctx: RequestContext): Promise<TenantOption[]> {
      const memberships = await findMembershipsByEmail(db, ctx.email);
      return memberships.map((m) => ({
        id: m.tenant_id,
        tenant_name: m.tenant_name,
        plan: m.plan,
        role: m.role,
        is_current: m.tenant_id === ctx.tenantId,
      }));
    },

    // Only a tenant where the caller's e-mail has a membership row; any other id is 404.
    async switchTenant(ctx: RequestContext, tenantId: number): Promise<SignInResult> {
      const target = (await findMembershipsByEmail(db, ctx.email)).find((m) => m.tenant_id === tenantId);
      if (!target) {
        throw notFound(messages.tenantNotFound, 'TENANT_NOT_FOUND');
      }
      await writeAudit(db, contextOf(target, ctx), {
        action: 'Switch Organization',
        resourceType: 'user',
        resourceId: target.id,
        details: `Switched from ${ctx.tenantName}`,
      });
      return issueFor(target);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export type DevSignInCaller = { ip: string; headers: Record<string, unknown> };
export type DevSignInPolicy = Pick<Config, 'devLogin' | 'devLoginFromAnyAddress' | 'trustProxy'>;

/**
 * Whether this caller may use password-less dev sign-in. It is judged on the caller's own address
 * (request.ip, after TRUST_PROXY resolution), never on the address the server is bound to: behind
 * a reverse proxy on the same machine every request arrives from loopback. So without TRUST_PROXY
 * a request that carries forwarding headers came through a proxy and is not local either.
 */
export function devSignInAllowed(policy: DevSignInPolicy, caller: DevSignInCaller): boolean {
  if (!policy.devLogin) {
    return false;
  }
  if (policy.devLoginFromAnyAddress) {
    return true;
  }
  const isProxiedUnresolved =
    policy.trustProxy === false && FORWARDING_HEADERS.some((h) => caller.headers[h] !== undefined);
  return isLoopbackAddress(caller.ip) && !isProxiedUnresolved;
}
