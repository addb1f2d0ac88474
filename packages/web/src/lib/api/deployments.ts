import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeploymentListResponse, JobStatus } from '@outpost/contract/deployments';
import { api } from '../api-client';
import { useUser } from '../auth';

// Deployment jobs (docs/product/deployments.md#calls): the keys every deployments query
// sits under and the history. Shared by the deployments screens, the deploy dialog and the shell,
// which watches active jobs for the live notifications (app/deployment-watch.tsx); one job, its
// step logs, create and cancel live in the deployments feature. Every key holds the tenant, so
// one organisation's jobs are never served to another from the cache.

export type DeploymentListParams = {
  page: number;
  limit: number;
  status?: JobStatus;
  search?: string;
};

export const deploymentsKey = (tenantId: number) => ['deployments', tenantId] as const;
export const deploymentListKey = (tenantId: number, params: DeploymentListParams) =>
  [...deploymentsKey(tenantId), 'list', params] as const;
export const getDeployments = (params: DeploymentListParams, signal?: AbortSignal) =>
  api.get<DeploymentListResponse>('/customer/deployments', params, signal);

export const getDeploymentsQueryOptions = (tenantId: number, params: DeploymentListParams) =>
  queryOptions({
    queryKey: deploymentListKey(tenantId, params),
    queryFn: ({ signal }) => getDeployments(params, signal),
    placeholderData: keepPreviousData,
  });

export function useDeployments(params: DeploymentListParams) {
  const user = useUser();
  return useQuery(getDeploymentsQueryOptions(user.tenant_id, params));
}

/** Invalidates every deployments query of the tenant (after a create or a cancel). */
export function useInvalidateDeployments() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: deploymentsKey(user.tenant_id) });
}
