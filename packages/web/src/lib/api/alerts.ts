import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Alert,
  AlertCounts,
  AlertListQuery,
  AlertListResponse,
  Maintenance,
} from '@outpost/contract/alerts';
import type { Severity } from '@outpost/contract/checks';
import type { ListData } from '@outpost/contract/envelope';
import { paginate } from '@outpost/contract/envelope';
import { api } from '../api-client';
import { useUser } from '../auth';

// Alerts (docs/product/monitoring.md#alerts): the keys every alerts query sits under, the counts
// (navigation badge, dashboard tile), the per-device badges and maintenance mode. Shared by the
// shell, the Alerts page, the dashboard, the devices and the sites screens; the shell's AlertsWatch
// invalidates everything under alertsKey on each alert_update, so every one of them is live. Every
// key holds the tenant, so one organisation's alerts are never served to another from the cache.

export const alertsKey = (tenantId: number) => ['alerts', tenantId] as const;

export type AlertListParams = Partial<Omit<AlertListQuery, 'page' | 'page_size'>> & {
  page: number;
  page_size: number;
};

export const alertListKey = (tenantId: number, params: AlertListParams) =>
  [...alertsKey(tenantId), 'list', params] as const;

/** The server's page, in the shape every list screen draws (ListData). */
export function toListData(r: AlertListResponse): ListData<Alert> {
  return { data: r.data, pagination: paginate(r.page, r.page_size, r.total) };
}

export const getAlerts = async (params: AlertListParams, signal?: AbortSignal) =>
  toListData(await api.get<AlertListResponse>('/customer/alerts', params, signal));

export const getAlertsQueryOptions = (tenantId: number, params: AlertListParams) =>
  queryOptions({
    queryKey: alertListKey(tenantId, params),
    queryFn: ({ signal }) => getAlerts(params, signal),
    placeholderData: keepPreviousData,
  });

export function useAlerts(params: AlertListParams) {
  const user = useUser();
  return useQuery(getAlertsQueryOptions(user.tenant_id, params));
}

export function useAlertCounts() {
  const user = useUser();
  return useQuery({
    queryKey: [...alertsKey(user.tenant_id), 'counts'] as const,
    queryFn: ({ signal }) => api.get<AlertCounts>('/customer/alerts/counts', undefined, signal),
    // live through AlertsWatch; the interval covers a socket that is down
    refetchInterval: 60_000,
  });
}

export type AlertBadge = { count: number; severity: Severity };
export const ALERT_BADGES_MAX = 200;

/** Per-device open alerts (count and worst severity) of the given devices, for the badges. */
export function useAlertBadges(guids: readonly string[]) {
  const user = useUser();
  const list = [...new Set(guids)].slice(0, ALERT_BADGES_MAX).sort();
  return useQuery({
    queryKey: [...alertsKey(user.tenant_id), 'by-device', list] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: Record<string, AlertBadge> }>(
        '/customer/alerts/by-device',
        { guids: list.join(',') },
        signal,
      ),
    select: (r) => r.data,
    enabled: list.length > 0,
    placeholderData: keepPreviousData,
  });
}

function useInvalidateAlerts() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: alertsKey(user.tenant_id) });
}

export function useAlertAction() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: ({ id, action, note }: { id: number; action: 'acknowledge' | 'resolve'; note?: string }) =>
      api.post<Alert>(`/customer/alerts/${id}/${action}`, { note: note || undefined }),
    onSettled: invalidate,
  });
}

export function useBulkAcknowledge() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: ({ ids, note }: { ids: number[]; note?: string }) =>
      api.post<{ updated: number }>('/customer/alerts/acknowledge', { ids, note: note || undefined }),
    onSettled: invalidate,
  });
}

// ---------- maintenance mode (docs/product/monitoring.md#maintenance-mode) ----------

export type MaintenanceTarget = { kind: 'devices' | 'sites'; id: string | number };
const maintenancePath = (t: MaintenanceTarget) => `/customer/${t.kind}/${t.id}/maintenance`;
const maintenanceKey = (tenantId: number, t: MaintenanceTarget) =>
  [...alertsKey(tenantId), 'maintenance', t.kind, String(t.id)] as const;

export function useMaintenance(target: MaintenanceTarget | null) {
  const user = useUser();
  return useQuery({
    queryKey: maintenanceKey(user.tenant_id, target ?? { kind: 'devices', id: '' }),
    queryFn: ({ signal }) =>
      target
        ? api.get<{ maintenance: Maintenance | null }>(maintenancePath(target), undefined, signal)
        : Promise.resolve({ maintenance: null }),
    select: (r) => r.maintenance,
    enabled: target !== null,
  });
}

export function useSetMaintenance() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: ({
      target,
      body,
    }: {
      target: MaintenanceTarget;
      /** null ends the maintenance */
      body: { minutes: number; reason?: string } | null;
    }) =>
      body === null
        ? api.delete<{ maintenance: Maintenance | null }>(maintenancePath(target))
        : api.put<{ maintenance: Maintenance | null }>(maintenancePath(target), body),
    onSettled: invalidate,
  });
}
