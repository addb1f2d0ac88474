import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MonitoringPolicy, MonitoringPolicyBody } from '@outpost/contract/checks';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/monitoring.md#monitoring-policies: /api/customer/monitoring-policies.

export type { MonitoringPolicy } from '@outpost/contract/checks';

export const monitoringPoliciesKey = (tenantId: number) => ['monitoring-policies', tenantId] as const;

export const getMonitoringPoliciesQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: [...monitoringPoliciesKey(tenantId), 'list'] as const,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: MonitoringPolicy[] }>('/customer/monitoring-policies', undefined, signal)).data,
  });

export function useMonitoringPolicies() {
  const user = useUser();
  return useQuery(getMonitoringPoliciesQueryOptions(user.tenant_id));
}

function useInvalidate() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: monitoringPoliciesKey(user.tenant_id) });
}

/** Create (no id) or replace (an id) a monitoring policy. */
export function useSaveMonitoringPolicy() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: MonitoringPolicyBody }) =>
      id === undefined
        ? api.post<MonitoringPolicy>('/customer/monitoring-policies', body)
        : api.put<MonitoringPolicy>(`/customer/monitoring-policies/${id}`, body),
    onSettled: invalidate,
  });
}

export function useSetMonitoringPolicyEnabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      api.put<MonitoringPolicy>(`/customer/monitoring-policies/${id}`, { enabled }),
    onSettled: invalidate,
  });
}

export function useDeleteMonitoringPolicy() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number }>(`/customer/monitoring-policies/${id}`),
    onSettled: invalidate,
  });
}
