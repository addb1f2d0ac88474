import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { api } from '../../../lib/api-client';
import { deploymentsKey } from '../../../lib/api/deployments';
import { useUser } from '../../../lib/auth';

// docs/product/deployments.md#details Deployment details — one job with its devices and steps.

export const deploymentDetailKey = (tenantId: number, id: number) =>
  [...deploymentsKey(tenantId), 'detail', id] as const;

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
