import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AgentRelease,
  UpdateAgentsRequest,
  UpdateAgentsResponse,
} from '@outpost/contract/agent-releases';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

// Published agent executables (GET /api/agent/releases, public) and agent updates.

export const agentReleasesKey = ['agent-releases'] as const;

export const getAgentReleases = (signal?: AbortSignal) =>
  api.get<AgentRelease[]>('/agent/releases', undefined, signal);

export const agentReleasesQueryOptions = () =>
  queryOptions({
    queryKey: agentReleasesKey,
    queryFn: ({ signal }) => getAgentReleases(signal),
    staleTime: 60_000,
  });

export function useAgentReleases(isEnabled = true) {
  return useQuery({ ...agentReleasesQueryOptions(), enabled: isEnabled });
}

/** Update Selected; with a rollout plan the agents update in waves (docs/product/rollouts.md#agent-updates-in-waves). */
export const updateAgents = (body: UpdateAgentsRequest) =>
  api.post<UpdateAgentsResponse>('/customer/agents/update', body);

export function useUpdateAgents() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: updateAgents,
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}
