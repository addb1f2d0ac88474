import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListData } from '@outpost/contract/envelope';
import { AUDIT_STATS_DEFAULT_DAYS } from '@outpost/contract/limits';
import { api } from '../api-client';
import { useUser } from '../auth';

// spec: operations §2.10 Audit logs, §3 Audit entries and stats, §7 Audit.

export type AuditEntry = {
  id: number;
  action: string;
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
  user_role: string | null;
  resource_type: string | null;
  resource_id: string | number | null;
  created_at: string;
  ip_address: string | null;
  details: string | null;
  old_values: string | null;
  new_values: string | null;
  user_agent: string | null;
};

export type AuditStats = {
  summary: { total_actions: number; create_actions: number; update_actions: number; active_users: number };
  period_days: number;
  activity_by_day: { date: string; activity_count: number; unique_users: number }[];
  top_users: {
    user_name: string | null;
    user_email: string | null;
    user_role: string | null;
    action_count: number;
  }[];
};

export type AuditFilters = {
  page: number;
  limit: number;
  search?: string;
  action?: string;
  resource_type?: string;
  user_id?: number;
  start_date?: string;
  end_date?: string;
};

export const auditKey = (tenantId: number) => ['audit', tenantId] as const;

export const getAuditLogs = (filters: AuditFilters, signal?: AbortSignal) =>
  api.get<ListData<AuditEntry>>('/customer/audit', filters, signal);

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
