import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { DEFAULT_NOTIFICATION_PREFS } from '@outpost/contract/auth';
import type { SessionUser } from '@outpost/contract/auth';
import type { Db } from '../../db/client';
import { sessions, tenants, users, userSites } from '../../db/schema/index';
import { statementCache, withRowMapper } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import type { RequestContext } from '../../lib/context';
import { inTenant, inTenantPlaceholders, tenantOnly } from '../../lib/scope';

const membershipColumns = {
  id: users.id,
  tenant_id: users.tenantId,
  tenant_name: tenants.tenantName,
  plan: tenants.plan,
  name: users.name,
  email: users.email,
  role: users.role,
  site_access_type: users.siteAccessType,
  company: users.company,
  notification_prefs: users.notificationPrefs,
};

export type Membership = SessionUser & { plan: string };

/** A selected row: the membership columns, with preferences possibly never saved (null). */
type MembershipRow = Omit<Membership, 'notification_prefs'> & {
  notification_prefs: SessionUser['notification_prefs'] | null;
};

function toMembership(row: MembershipRow): Membership {
  return { ...row, notification_prefs: row.notification_prefs ?? DEFAULT_NOTIFICATION_PREFS };
}

/** A person's memberships: those bound to their identity (SECURITY.md R2-1), never by e-mail. */
export async function findMembershipsOf(db: Executor, identityId: number): Promise<Membership[]> {
  const rows = await db
    .select(membershipColumns)
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.identityId, identityId))
    .orderBy(asc(tenants.id));
  return rows.map(toMembership);
}

export async function findMembership(db: Db, userId: number, tenantId: number): Promise<Membership | null> {
  const [row] = await db
    .select(membershipColumns)
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(inTenant(users, tenantOnly(tenantId)), eq(users.id, userId)))
    .limit(1);
  return row ? toMembership(row) : null;
}

export function toSessionUser(m: Membership): SessionUser {
  const { plan: _plan, ...user } = m;
  return user;
}

/** The people a dev sign-in may pick (only offered when dev sign-in is enabled). */
export async function listDevLoginUsers(db: Db, limit = 50) {
  const rows = await db
    .select({ email: users.email, name: users.name, tenant_name: tenants.tenantName, role: users.role })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .orderBy(asc(users.email), asc(tenants.id))
    .limit(limit * 4);
  const byEmail = new Map<
    string,
    { email: string; name: string | null; tenants: { tenant_name: string; role: Membership['role'] }[] }
  >();
  for (const r of rows) {
    const entry = byEmail.get(r.email) ?? { email: r.email, name: r.name, tenants: [] };
    entry.name ??= r.name;
    entry.tenants.push({ tenant_name: r.tenant_name, role: r.role });
    byEmail.set(r.email, entry);
  }
  return [...byEmail.values()].slice(0, limit);
}

/** The session check's row: the context of the request, but for what the request itself adds. */
type SessionMember = Omit<RequestContext, 'siteIds' | 'ip' | 'userAgent'> & { sessionId: string };

/**
 * Run on every request: its one row is built from the driver's array (lib/db withRowMapper), in
 * the order of the select below, not through drizzle's mapping of the joined columns.
 */
const sessionMemberOfRows = (rows: unknown[][]): SessionMember | null => {
  const r = rows[0];
  return r === undefined
    ? null
    : {
        sessionId: r[0] as string,
        identityId: r[1] as number,
        userId: r[2] as number,
        tenantId: r[3] as number,
        email: r[4] as string,
        name: r[5] as string | null,
        role: r[6] as SessionMember['role'],
        siteAccessType: r[7] as SessionMember['siteAccessType'],
        tenantName: r[8] as string,
      };
};

/**
 * The live membership behind a session token (read on every request, so a deleted user or a
 * changed role takes effect at once): one primary-key join. Every API request runs it, so it is
 * a prepared statement, built once per database handle: drizzle's query building was a tenth of
 * a cheap request's CPU, and PostgreSQL parses a named statement once per connection. The tenant
 * condition is the placeholder form of lib/scope's inTenant.
 */
const sessionMemberStatement = statementCache((db) =>
  withRowMapper(
    db
      .select({
        sessionId: sessions.id,
        identityId: sessions.identityId,
        userId: users.id,
        tenantId: users.tenantId,
        email: users.email,
        name: users.name,
        role: users.role,
        siteAccessType: users.siteAccessType,
        tenantName: tenants.tenantName,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sessionId')),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
          // the session's identity still owns the membership (it is never rebound, but say so)
          eq(users.identityId, sessions.identityId),
          inTenantPlaceholders(users),
          eq(users.id, sql.placeholder('userId')),
        ),
      )
      .limit(1)
      .prepare('outpost_session_member_v2'),
    sessionMemberOfRows,
  ),
);

/** The membership behind a live (not revoked, not expired) session, or null. */
export async function findSessionMember(
  db: Reader,
  claims: { userId: number; tenantId: number; sessionId: string },
) {
  return sessionMemberStatement(db, 'member').execute(claims);
}

/** The sites a user with site_access_type 'specific' was given. */
export async function listUserSiteIds(db: Reader, userId: number): Promise<number[]> {
  const rows = await db
    .select({ siteId: userSites.siteId })
    .from(userSites)
    .where(eq(userSites.userId, userId));
  return rows.map((r) => r.siteId);
}
