import {
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  DeploymentCreateBody,
  DeploymentJob,
  DeploymentJobDetail,
  DeploymentListResponse,
  JobStatus,
  StepLogsResponse,
} from '@outpost/contract/deployments';
import { STEP_LOG_MAX_PAGE_SIZE } from '@outpost/contract/limits';
import { api } from '../api-client';
import { useUser } from '../auth';

// Deployment jobs (spec: operations §7 Deployments, core §7): the history, one job, its step logs,
// create and cancel. Shared by the deployments screens, the deploy dialog and the shell, which
// watches active jobs for the live notifications (app/deployment-watch.tsx). Every key holds the
// tenant, so one organisation's jobs are never served to another from the cache.

export type DeploymentListParams = {
  page: number;
  limit: number;
  status?: JobStatus;
  search?: string;
};

export const deploymentsKey = (tenantId: number) => ['deployments', tenantId] as const;
export const deploymentListKey = (tenantId: number, params: DeploymentListParams) =>
  [...deploymentsKey(tenantId), 'list', params] as const;
export const deploymentDetailKey = (tenantId: number, id: number) =>
  [...deploymentsKey(tenantId), 'detail', id] as const;
export const stepLogsKey = (tenantId: number, deviceDeploymentId: number) =>
  [...deploymentsKey(tenantId), 'logs', deviceDeploymentId, STEP_LOG_MAX_PAGE_SIZE] as const;

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

export const getDeployment = (id: number, signal?: AbortSignal) =>
  api.get<DeploymentJobDetail>(`/customer/deployments/${id}`, undefined, signal);

export const getDeploymentQueryOptions = (tenantId: number, id: number) =>
  queryOptions({
    queryKey: deploymentDetailKey(tenantId, id),
    queryFn: ({ signal }) => getDeployment(id, signal),
  });

export function useDeployment(id: number) {
  const user = useUser();
  return useQuery({
    ...getDeploymentQueryOptions(user.tenant_id, id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export const getStepLogs = (deviceDeploymentId: number, page: number, signal?: AbortSignal) =>
  api.get<StepLogsResponse>(
    `/customer/deployments/device-deployment/${deviceDeploymentId}/logs`,
    { page, limit: STEP_LOG_MAX_PAGE_SIZE },
    signal,
  );

/**
 * A device deployment's attempts, a page at a time (the server pages them, SECURITY.md R2-13):
 * the dialog shows every page loaded so far and loads the next on request. A refetch reloads
 * the pages already shown.
 */
export function useStepLogs(deviceDeploymentId: number | null) {
  const user = useUser();
  return useInfiniteQuery({
    queryKey: stepLogsKey(user.tenant_id, deviceDeploymentId ?? 0),
    queryFn: ({ signal, pageParam }) => getStepLogs(deviceDeploymentId!, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination.page < last.pagination.totalPages ? last.pagination.page + 1 : undefined,
    enabled: deviceDeploymentId !== null,
  });
}

export const createDeployment = (body: DeploymentCreateBody) =>
  api.post<DeploymentJob>('/customer/deployments', body);

export const cancelDeployment = (id: number) => api.post<DeploymentJob>(`/customer/deployments/${id}/cancel`);

/** Invalidates every deployments query of the tenant (after a create or a cancel). */
export function useInvalidateDeployments() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: deploymentsKey(user.tenant_id) });
}

export function useCancelDeployment() {
  const invalidate = useInvalidateDeployments();
  return useMutation({ mutationFn: cancelDeployment, onSettled: () => invalidate() });
}
