import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceListQuery, DeviceListResponse } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// spec: operations §7 Agents (devices) — the agents list is the devices list, administered.
export type AgentFilters = {
  page: number;
  limit: number;
  search?: string;
  status?: DeviceListQuery['status'];
  os_type?: string;
};

export const agentsKey = (tenantId: number) => ['agents', tenantId] as const;

export const getAgents = (filters: AgentFilters, signal?: AbortSignal) =>
  api.get<DeviceListResponse>('/customer/devices', filters, signal);

export const getAgentsQueryOptions = (tenantId: number, filters: AgentFilters) =>
  queryOptions({
    queryKey: [...agentsKey(tenantId), 'list', filters] as const,
    queryFn: ({ signal }) => getAgents(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useAgents(filters: AgentFilters) {
  const user = useUser();
  return useQuery(getAgentsQueryOptions(user.tenant_id, filters));
}
