import { useQuery } from '@tanstack/react-query';
import { DEPLOY_DIALOG_LOAD_LIMIT } from '@outpost/contract/limits';
import type { PackageListResponse } from '@outpost/contract/packages';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { getDevices } from '../../../lib/api/devices';

// docs/product/deployments.md#deploy-dialog — the deploy dialog loads up to 100 packages and 100 devices; only devices online
// or logged in are offered (the device list's 'online' filter covers both).

export const getDeployOptions = async (signal?: AbortSignal) => {
  const [packages, devices] = await Promise.all([
    api.get<PackageListResponse>(
      '/customer/deployment-packages',
      { page: 1, limit: DEPLOY_DIALOG_LOAD_LIMIT },
      signal,
    ),
    getDevices({ page: 1, limit: DEPLOY_DIALOG_LOAD_LIMIT, status: 'online' }, signal),
  ]);
  return { packages: packages.data, devices: devices.data };
};

export function useDeployOptions(isEnabled: boolean) {
  const user = useUser();
  return useQuery({
    queryKey: ['deploy-options', user.tenant_id] as const,
    queryFn: ({ signal }) => getDeployOptions(signal),
    enabled: isEnabled,
    // Opened again later, the dialog offers the devices online now.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
