import { useQuery } from '@tanstack/react-query';
import type { GroupListResponse } from '@outpost/contract/groups';
import { api } from '../api-client';
import { useUser } from '../auth';

// The deploy dialog's group choice (docs/product/device-sets.md#groups "Deploying to a group"):
// the groups the caller may see, by name, with their member counts in the caller's scope.

export const DEPLOY_GROUPS_LIMIT = 200;

export const getDeployGroups = (signal?: AbortSignal) =>
  api.get<GroupListResponse>('/customer/groups', { page: 1, limit: DEPLOY_GROUPS_LIMIT }, signal);

export function useDeployGroups(isEnabled: boolean) {
  const user = useUser();
  return useQuery({
    queryKey: ['deploy-groups', user.tenant_id] as const,
    queryFn: ({ signal }) => getDeployGroups(signal),
    enabled: isEnabled,
    staleTime: 0,
    retry: false,
  });
}
