import { useMutation } from '@tanstack/react-query';
import type { CreateDeviceActionsResponse } from '@outpost/contract/device-actions';
import type { DeviceActionType } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';

export const createDeviceAction = (body: { device_ids: number[]; action_type: DeviceActionType }) =>
  api.post<CreateDeviceActionsResponse>('/customer/deployments/device-actions', body);

// No list refetch afterwards: nothing changes until the agent acts, and that arrives live
// (a refetch racing the live update could even put the old status back).
export const useCreateDeviceAction = () => useMutation({ mutationFn: createDeviceAction });
