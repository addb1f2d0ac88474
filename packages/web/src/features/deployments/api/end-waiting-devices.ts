import { useMutation } from '@tanstack/react-query';
import type { EndWaitingDevicesBody, EndWaitingDevicesResponse } from '@outpost/contract/deployments';
import { api } from '../../../lib/api-client';
import { useInvalidateDeployments } from '../../../lib/api/deployments';

// docs/architecture.md, "Devices a job waits for": an administrator ends the parts of a job whose
// devices are offline (fail or cancel), one device or all waiting ones.

export const endWaitingDevices = (jobId: number, body: EndWaitingDevicesBody) =>
  api.post<EndWaitingDevicesResponse>(`/customer/deployments/${jobId}/waiting-devices/end`, body);

export function useEndWaitingDevices(jobId: number) {
  const invalidate = useInvalidateDeployments();
  return useMutation({
    mutationFn: (body: EndWaitingDevicesBody) => endWaitingDevices(jobId, body),
    onSettled: () => invalidate(),
  });
}
