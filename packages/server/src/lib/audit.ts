import type { Db } from '../db/client';
import { auditLogs } from '../db/schema/index';
import type { RequestContext } from '../plugins/auth';

export type AuditEntry = {
  action: string;
  resourceType?: string;
  resourceId?: string | number | null;
  details?: string | null;
  oldValues?: unknown;
  newValues?: unknown;
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

type Writer = Pick<Db, 'insert'>;

const asText = (v: unknown) =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);

// Written in the same transaction as the change it records (ARCHITECTURE §3).
export async function writeAudit(tx: Writer, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    tenantId: actor.tenantId,
    userId: actor.userId,
    userName: actor.name,
    userEmail: actor.email,
    userRole: actor.role,
    action: entry.action,
    resourceType: entry.resourceType ?? null,
    resourceId: entry.resourceId == null ? null : String(entry.resourceId),
    details: entry.details ?? null,
    oldValues: asText(entry.oldValues),
    newValues: asText(entry.newValues),
    ipAddress: actor.ip || null,
    userAgent: actor.userAgent,
  });
}
