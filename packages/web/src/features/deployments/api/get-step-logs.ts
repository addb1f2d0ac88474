import { useInfiniteQuery } from '@tanstack/react-query';
import type { StepLogsResponse } from '@outpost/contract/deployments';
import { STEP_LOG_MAX_PAGE_SIZE } from '@outpost/contract/limits';
import { api } from '../../../lib/api-client';
import { deploymentsKey } from '../../../lib/api/deployments';
import { useUser } from '../../../lib/auth';

export const stepLogsKey = (tenantId: number, deviceDeploymentId: number) =>
  [...deploymentsKey(tenantId), 'logs', deviceDeploymentId, STEP_LOG_MAX_PAGE_SIZE] as const;

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
