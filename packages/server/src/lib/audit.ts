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

type Executor = Pick<Db, 'insert'>;

const asText = (v: unknown) =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v);

// Written in the same transaction as the change it records (ARCHITECTURE §3).
export async function writeAudit(tx: Executor, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    tenantId: ctx.tenantId,
    userId: ctx.userId,
    userName: ctx.name,
    userEmail: ctx.email,
    userRole: ctx.role,
    action: entry.action,
    resourceType: entry.resourceType ?? null,
    resourceId: entry.resourceId == null ? null : String(entry.resourceId),
    details: entry.details ?? null,
    oldValues: asText(entry.oldValues),
    newValues: asText(entry.newValues),
    ipAddress: ctx.ip,
    userAgent: ctx.userAgent,
  });
}
