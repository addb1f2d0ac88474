import { useMutation } from '@tanstack/react-query';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { api } from '../../../lib/api-client';
import { useInvalidateDeployments } from '../../../lib/api/deployments';

export const cancelDeployment = (id: number) => api.post<DeploymentJob>(`/customer/deployments/${id}/cancel`);

export function useCancelDeployment() {
  const invalidate = useInvalidateDeployments();
  return useMutation({ mutationFn: cancelDeployment, onSettled: () => invalidate() });
}
