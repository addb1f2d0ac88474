import { and, count, desc, eq, gte, ilike, lt, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AuditListFilters, AuditLogEntry, AuditStats } from '@outpost/contract/audit';
import { AUDIT_ACTIONS_MAX } from '@outpost/contract/audit';
import { auditLogs } from '../../db/schema/index';
import type { Reader } from '../../lib/db';
import { aboutOnlyScopeSites } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// Reading the caller's tenant's audit log. Entries are written by lib/audit.ts in each change's
// own transaction; nothing here (or anywhere in the API) updates or deletes them. A site-limited
// administrator reads only the entries about their own sites (SECURITY.md R2-9): every query
// here, the list, its count and the stats, starts from the same aboutOnlyScopeSites condition.

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const DAY_MS = 24 * 60 * 60 * 1000;
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** start_date: a day starts at its first UTC moment; a date and time is that instant. */
export const startOf = (v: string) => new Date(isDay(v) ? `${v}T00:00:00.000Z` : v);
/**
 * end_date as an exclusive bound: a day includes all of it (up to the next day's first moment);
 * a date and time includes that instant.
 */
export const endBefore = (v: string) =>
  isDay(v) ? new Date(Date.parse(`${v}T00:00:00.000Z`) + DAY_MS) : new Date(Date.parse(v) + 1);

function listWhere(scope: Scope, f: AuditListFilters): SQL {
  const conditions: (SQL | undefined)[] = [aboutOnlyScopeSites(auditLogs, scope)];
  if (f.search) {
    const pattern = likePattern(f.search);
    conditions.push(
      or(
        ilike(auditLogs.action, pattern),
        ilike(auditLogs.userName, pattern),
        ilike(auditLogs.userEmail, pattern),
        ilike(auditLogs.resourceType, pattern),
        ilike(auditLogs.resourceId, pattern),
        ilike(auditLogs.details, pattern),
      ),
    );
  }
  if (f.action) {
    conditions.push(sql`lower(${auditLogs.action}) = ${f.action.toLowerCase()}`);
  }
  if (f.resource_type) {
    conditions.push(sql`lower(${auditLogs.resourceType}) = ${f.resource_type.toLowerCase()}`);
  }
  if (f.user_id !== undefined) {
    conditions.push(eq(auditLogs.userId, f.user_id));
  }
  if (f.start_date) {
    conditions.push(gte(auditLogs.createdAt, startOf(f.start_date)));
  }
  if (f.end_date) {
    conditions.push(lt(auditLogs.createdAt, endBefore(f.end_date)));
  }
  return and(...conditions) ?? sql`false`;
}

export async function listAuditLogs(
  db: Reader,
  scope: Scope,
  f: AuditListFilters,
): Promise<{ rows: AuditLogEntry[]; total: number }> {
  const where = listWhere(scope, f);
  const [totalRow] = await db.select({ n: count() }).from(auditLogs).where(where);
  const rows = await db
    .select()
    .from(auditLogs)
    .where(where)
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      action: r.action,
      user_id: r.userId,
      user_name: r.userName,
      user_email: r.userEmail,
      user_role: r.userRole,
      resource_type: r.resourceType,
      resource_id: r.resourceId,
      created_at: r.createdAt.toISOString(),
      ip_address: r.ipAddress,
      details: r.details,
      old_values: r.oldValues,
      new_values: r.newValues,
      user_agent: r.userAgent,
    })),
    total: totalRow?.n ?? 0,
  };
}

/** Entries of the tenant since `since`, summarised as the stats card, days and top users. */
export async function auditStats(
  db: Reader,
  scope: Scope,
  since: Date,
  topUsers: number,
): Promise<Omit<AuditStats, 'period_days'>> {
  const where = and(aboutOnlyScopeSites(auditLogs, scope), gte(auditLogs.createdAt, since));
  const [summary] = await db
    .select({
      total_actions: sql<number>`count(*)::int`,
      create_actions: sql<number>`(count(*) filter (where ${auditLogs.action} ilike '%create%'))::int`,
      update_actions: sql<number>`(count(*) filter (where ${auditLogs.action} ilike '%update%'))::int`,
      active_users: sql<number>`count(distinct ${auditLogs.userId})::int`,
    })
    .from(auditLogs)
    .where(where);
  const day = sql<string>`to_char(${auditLogs.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const days = await db
    .select({
      date: day,
      activity_count: sql<number>`count(*)::int`,
      unique_users: sql<number>`count(distinct ${auditLogs.userId})::int`,
    })
    .from(auditLogs)
    .where(where)
    .groupBy(day)
    .orderBy(desc(day));
  // The name, e-mail and role a user had on their latest entry (entries copy them when written).
  const latest = <T>(column: SQL | typeof auditLogs.userName) =>
    sql<T>`(array_agg(${column} order by ${auditLogs.createdAt} desc, ${auditLogs.id} desc))[1]`;
  const actionCount = sql<number>`count(*)::int`;
  const users = await db
    .select({
      user_id: auditLogs.userId,
      user_name: latest<string | null>(auditLogs.userName),
      user_email: latest<string | null>(sql`${auditLogs.userEmail}`),
      user_role: latest<string | null>(sql`${auditLogs.userRole}`),
      action_count: actionCount,
    })
    .from(auditLogs)
    .where(and(where, sql`${auditLogs.userId} is not null`))
    .groupBy(auditLogs.userId)
    .orderBy(desc(actionCount), auditLogs.userId)
    .limit(topUsers);
  return {
    summary: summary ?? { total_actions: 0, create_actions: 0, update_actions: 0, active_users: 0 },
    activity_by_day: days,
    top_users: users,
  };
}

/** The distinct actions of the caller's log (their sites' entries only when site-limited). */
export async function auditActions(db: Reader, scope: Scope): Promise<string[]> {
  const rows = await db
    .select({ action: auditLogs.action })
    .from(auditLogs)
    .where(aboutOnlyScopeSites(auditLogs, scope))
    .groupBy(auditLogs.action)
    .orderBy(auditLogs.action)
    .limit(AUDIT_ACTIONS_MAX);
  return rows.map((r) => r.action);
}

export type AuditExportRow = AuditLogEntry & { key: { at: string; id: number } };

/**
 * The CSV export's walk (docs/product/device-sets.md#exports): the entries the list shows with
 * these filters, in its order (newest first), a page after `after` (keyset on created_at and id;
 * the time travels as text so no microsecond is lost in a JavaScript Date).
 */
export async function auditLogsAfter(
  db: Reader,
  scope: Scope,
  f: Omit<AuditListFilters, 'page' | 'limit'>,
  after: { at: string; id: number } | null,
  limit: number,
): Promise<AuditExportRow[]> {
  const where = listWhere(scope, { ...f, page: 1, limit });
  const rows = await db
    .select({ entry: auditLogs, at: sql<string>`${auditLogs.createdAt}::text` })
    .from(auditLogs)
    .where(
      after
        ? and(where, sql`(${auditLogs.createdAt}, ${auditLogs.id}) < (${after.at}::timestamptz, ${after.id})`)
        : where,
    )
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(limit);
  return rows.map(({ entry: r, at }) => ({
    id: r.id,
    action: r.action,
    user_id: r.userId,
    user_name: r.userName,
    user_email: r.userEmail,
    user_role: r.userRole,
    resource_type: r.resourceType,
    resource_id: r.resourceId,
    created_at: r.createdAt.toISOString(),
    ip_address: r.ipAddress,
    details: r.details,
    old_values: r.oldValues,
    new_values: r.newValues,
    user_agent: r.userAgent,
    key: { at, id: r.id },
  }));
}
