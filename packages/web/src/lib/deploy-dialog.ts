import { createContext, useContext } from 'react';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { DeviceStatus } from '@outpost/contract/devices';
import type { Architecture, TargetOs } from '@outpost/contract/targets';

// The deploy dialog is opened from the device list, the package list and the builder (docs/product/devices.md#device-list
// Deploy dialog, docs/product/packages.md#package-list). Features never import each other, so the shell hosts the one
// dialog (app/deploy-dialog-host.tsx) and every screen asks for it through this context.

export type DeployPackageChoice = {
  id: number;
  name: string;
  target_os?: TargetOs;
  architecture?: Architecture;
};
export type DeployDeviceChoice = {
  id: number;
  hostname: string | null;
  ip_address?: string | null;
  status: DeviceStatus;
  /** the device's OS; a package is offered only to devices of its target (docs/architecture.md) */
  os_type?: string | null;
  /** the CPU architecture the agent reports (null: an older agent, matches any package) */
  architecture?: string | null;
};

export type DeployDialogRequest = {
  /** preselected packages (the package list's selection or row, the builder's package) */
  packages?: DeployPackageChoice[];
  /** preselected devices (the device list's selection or row) */
  devices?: DeployDeviceChoice[];
  /** a device group to deploy to (the Groups page; docs/product/device-sets.md#groups) */
  group?: { id: number; name: string };
  /** called with the jobs created after a full success (the dialog has closed) */
  onSuccess?: (jobs: DeploymentJob[]) => void;
};

export type DeployDialogApi = { openDeployDialog: (request: DeployDialogRequest) => void };

export const DeployDialogContext = createContext<DeployDialogApi | null>(null);

export function useDeployDialog(): DeployDialogApi {
  const ctx = useContext(DeployDialogContext);
  if (!ctx) {
    throw new Error('useDeployDialog must be used inside the signed-in shell');
  }
  return ctx;
}
