import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ServiceAction, ServiceControlResponse } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { deviceServicesKey } from './get-device-services';

export type ServiceControlInput = { idOrGuid: string; serviceName: string; action: ServiceAction };

export const controlService = ({ idOrGuid, serviceName, action }: ServiceControlInput) =>
  api.post<ServiceControlResponse>(
    `/customer/devices/${encodeURIComponent(idOrGuid)}/services/${encodeURIComponent(serviceName)}/${action}`,
  );

/** docs/product/devices.md#services — after a control action the services list reloads (success or not). */
export function useControlService() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: controlService,
    onSettled: (_data, _err, input) =>
      queryClient.invalidateQueries({ queryKey: deviceServicesKey(user.tenant_id, input.idOrGuid) }),
  });
}
