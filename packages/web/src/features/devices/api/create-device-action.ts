import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateDeviceActionsResponse } from '@outpost/contract/device-actions';
import type { DeviceActionType } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from './get-devices';

export const createDeviceAction = (body: { device_ids: number[]; action_type: DeviceActionType }) =>
  api.post<CreateDeviceActionsResponse>('/customer/deployments/device-actions', body);

export function useCreateDeviceAction() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: createDeviceAction,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}
