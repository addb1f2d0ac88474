import { auditLogs } from '../db/schema/index';
import type { RequestContext } from './context';
import type { Executor } from './db';
import { emitEvent } from './events';

export type AuditEntry = {
  action: string;
  resourceType?: string;
  resourceId?: string | number | null;
  details?: string | null;
  oldValues?: unknown;
  newValues?: unknown;
  /**
   * The sites the entry is about (a device's, a site's own id, a user's sites). Who may read the
   * entry follows from it (SECURITY.md R2-9): omitted, empty or holding a null (a device without a
   * site), the entry is tenant-wide and only administrators of all sites read it.
   */
  siteIds?: readonly (number | null)[] | null;
};

/** Who did it: a signed-in person (their request context) or the system on a device's behalf. */
export type AuditActor = Pick<RequestContext, 'tenantId' | 'name' | 'ip' | 'userAgent'> & {
  userId: number | null;
  email: string | null;
  role: RequestContext['role'] | null;
};

/**
 * An actor for changes no person makes (an agent enrolling, a device reporting): the entry names
 * what authorised it, e.g. "Agent enrolment (Office rollout)", and the caller's address.
 */
export function systemActor(input: {
  tenantId: number;
  name: string;
  ip: string | null;
  userAgent: string | null;
}): AuditActor {
  return {
    tenantId: input.tenantId,
    userId: null,
    name: input.name,
    email: null,
    role: null,
    ip: input.ip ?? '',
    userAgent: input.userAgent,
  };
}

/** The sites of a user an entry is about: none for a user of all sites (tenant-wide). */
export function userAuditSites(user: Pick<RequestContext, 'siteAccessType' | 'siteIds'>): number[] | null {
  return user.siteAccessType === 'specific' ? [...user.siteIds] : null;
}

/** An action bounded by the caller's own sites (a site-limited cleanup): the caller's sites. */
export const callerAuditSites = userAuditSites;

/** Stored form of siteIds: sorted distinct ids, or null for a tenant-wide entry. */
export function auditSiteIds(siteIds: AuditEntry['siteIds']): number[] | null {
  if (!siteIds || siteIds.length === 0 || siteIds.some((id) => id === null)) {
    return null;
  }
  return [...new Set(siteIds as readonly number[])].sort((a, b) => a - b);
}

type Writer = Executor;

const asText = (v: unknown) =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);

// Written in the same transaction as the change it records (docs/product/administration.md#who-may-do-what).
// Every entry is also the event audit.entry_written (docs/product/webhooks.md#events).
export async function writeAudit(tx: Writer, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const [row] = await tx
    .insert(auditLogs)
    .values({
      tenantId: actor.tenantId,
      userId: actor.userId,
      userName: actor.name,
      userEmail: actor.email,
      userRole: actor.role,
      action: entry.action,
      resourceType: entry.resourceType ?? null,
      resourceId: entry.resourceId == null ? null : String(entry.resourceId),
      details: entry.details ?? null,
      siteIds: auditSiteIds(entry.siteIds),
      oldValues: asText(entry.oldValues),
      newValues: asText(entry.newValues),
      ipAddress: actor.ip || null,
      userAgent: actor.userAgent,
    })
    .returning({ id: auditLogs.id, createdAt: auditLogs.createdAt });
  const data = {
    id: row!.id,
    action: entry.action,
    resource_type: entry.resourceType ?? null,
    resource_id: entry.resourceId == null ? null : String(entry.resourceId),
    details: entry.details ?? null,
    user: { id: actor.userId, name: actor.name, email: actor.email },
    created_at: row!.createdAt.toISOString(),
  };
  await emitEvent(tx, actor.tenantId, 'audit.entry_written', data, `audit:${row!.id}`);
}
