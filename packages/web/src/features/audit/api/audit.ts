import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AuditActionsResponse,
  AuditListQuery,
  AuditListResponse,
  AuditStats,
} from '@outpost/contract/audit';
import { AUDIT_STATS_DEFAULT_DAYS } from '@outpost/contract/limits';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/activity.md#audit-log Audit logs, #fields, #calls.

export type { AuditLogEntry as AuditEntry, AuditStats } from '@outpost/contract/audit';
// user_id is sent as a number (the query's input type accepts text too).
export type AuditFilters = Omit<AuditListQuery, 'page' | 'limit' | 'user_id'> & {
  page: number;
  limit: number;
  user_id?: number;
};

export const auditKey = (tenantId: number) => ['audit', tenantId] as const;

export const getAuditLogs = (filters: AuditFilters, signal?: AbortSignal) =>
  api.get<AuditListResponse>('/customer/audit', filters, signal);

export const getAuditLogsQueryOptions = (tenantId: number, filters: AuditFilters) =>
  queryOptions({
    queryKey: [...auditKey(tenantId), 'list', filters] as const,
    queryFn: ({ signal }) => getAuditLogs(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useAuditLogs(filters: AuditFilters) {
  const user = useUser();
  return useQuery(getAuditLogsQueryOptions(user.tenant_id, filters));
}

export const getAuditStats = (days: number, signal?: AbortSignal) =>
  api.get<AuditStats>('/customer/audit/stats', { days }, signal);

export const getAuditStatsQueryOptions = (tenantId: number, days: number) =>
  queryOptions({
    queryKey: [...auditKey(tenantId), 'stats', days] as const,
    queryFn: ({ signal }) => getAuditStats(days, signal),
  });

export function useAuditStats(days = AUDIT_STATS_DEFAULT_DAYS) {
  const user = useUser();
  return useQuery(getAuditStatsQueryOptions(user.tenant_id, days));
}

/** Every distinct action of the log, for the Action filter. */
export const getAuditActions = (signal?: AbortSignal) =>
  api.get<AuditActionsResponse>('/customer/audit/actions', undefined, signal);

export const getAuditActionsQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: [...auditKey(tenantId), 'actions'] as const,
    queryFn: ({ signal }) => getAuditActions(signal),
    staleTime: 60_000,
  });

export function useAuditActions() {
  const user = useUser();
  return useQuery(getAuditActionsQueryOptions(user.tenant_id));
}
