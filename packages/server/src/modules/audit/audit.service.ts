import { paginate } from '@outpost/contract/envelope';
import { adminMessages as messages } from '@outpost/contract/messages';
import type { AuditListFilters, AuditListResponse, AuditStats } from '@outpost/contract/audit';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { csvFilename, keysetPages, mapPages } from '../../lib/csv';
import type { CsvExport } from '../../lib/csv';
import { auditActions, auditLogsAfter, auditStats, endBefore, listAuditLogs, startOf } from './audit.queries';

// The audit log, read-only (docs/product/activity.md#audit-log, #calls). Administrators only.

const TOP_USERS = 10;

function checkRange(f: Pick<AuditListFilters, 'start_date' | 'end_date'>): void {
  if (f.start_date && f.end_date) {
    if (startOf(f.start_date).getTime() >= endBefore(f.end_date).getTime()) {
      throw badRequest(messages.dateRangeInverted, 'DATE_RANGE_INVERTED');
    }
  }
}

export function createAuditService({ db }: { db: Db }) {
  return {
    async list(ctx: RequestContext, f: AuditListFilters): Promise<AuditListResponse> {
      requireAdmin(ctx);
      checkRange(f);
      const { rows, total } = await listAuditLogs(db, ctx, f);
      return { data: rows, pagination: paginate(f.page, f.limit, total) };
    },

    /** The log with the list's filters as CSV, newest first (docs/product/device-sets.md#exports). */
    exportCsv(ctx: RequestContext, f: Omit<AuditListFilters, 'page' | 'limit'>): CsvExport {
      requireAdmin(ctx);
      checkRange(f);
      const pages = keysetPages(
        (after: { at: string; id: number } | null, limit) => auditLogsAfter(db, ctx, f, after, limit),
        (last) => last.key,
      );
      return {
        filename: csvFilename('audit-log'),
        header: [
          'Time',
          'User',
          'E-mail',
          'Role',
          'Action',
          'Resource type',
          'Resource ID',
          'Details',
          'IP address',
        ],
        pages: mapPages(pages, (r) => [
          r.created_at,
          r.user_name,
          r.user_email,
          r.user_role,
          r.action,
          r.resource_type,
          r.resource_id,
          r.details,
          r.ip_address,
        ]),
      };
    },

    /** The distinct actions of the log, for the Action filter. */
    async actions(ctx: RequestContext): Promise<string[]> {
      requireAdmin(ctx);
      return auditActions(db, ctx);
    },

    /** The last `days` days: now minus days × 24 hours. */
    async stats(ctx: RequestContext, days: number, now = new Date()): Promise<AuditStats> {
      requireAdmin(ctx);
      const since = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
      return { ...(await auditStats(db, ctx, since, TOP_USERS)), period_days: days };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
