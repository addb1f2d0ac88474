import type { ReactNode } from 'react';
import { DEPLOY_DIALOG_LOAD_LIMIT } from '@outpost/contract/limits';
import { StatusBadge } from '../../../components/ui/badge';
import type { DeployDeviceChoice } from '../../../lib/deploy-dialog';
import { PickList } from './pick-list';
import type { PickItem } from './pick-list';
import type { DeployPackageInfo } from './use-deploy-targets';

/** The deploy dialog's two pick lists: the packages to install and the devices to install them on. */
export function DeployTargets({
  packages,
  devices,
  leftOutNote,
  packageIds,
  deviceIds,
  onPackagesChange,
  onDevicesChange,
  packagesError,
  devicesError,
  isLoading,
  isDisabled,
  targetSwitch,
  groupPicker,
}: {
  packages: ReadonlyMap<number, DeployPackageInfo>;
  /** the devices offered for the chosen packages */
  devices: readonly DeployDeviceChoice[];
  /** why some devices are not offered, if any are left out */
  leftOutNote: string | null;
  packageIds: number[];
  deviceIds: number[];
  onPackagesChange: (ids: number[]) => void;
  onDevicesChange: (ids: number[]) => void;
  packagesError: string | undefined;
  devicesError: string | undefined;
  isLoading: boolean;
  isDisabled: boolean;
  /** "Deploy to: devices | group", in the devices' header */
  targetSwitch?: ReactNode;
  /** shown instead of the devices' pick list when deploying to a group */
  groupPicker?: ReactNode;
}) {
  const packageItems: PickItem[] = [...packages.values()].map((p) => ({
    id: p.id,
    label: p.name,
    detail: 'detail' in p ? p.detail : undefined,
  }));
  const deviceItems: PickItem[] = devices.map((d) => ({
    id: d.id,
    label: d.hostname ?? `Device ${d.id}`,
    detail: d.ip_address ?? undefined,
    aside: <StatusBadge status={d.status} />,
  }));

  return (
    <>
      <PickList
        title="Packages"
        noun={['package', 'packages']}
        items={packageItems}
        selectedIds={packageIds}
        onChange={onPackagesChange}
        error={packagesError}
        searchPlaceholder="Search packages..."
        isLoading={isLoading}
        isDisabled={isDisabled}
        hint={`Up to ${DEPLOY_DIALOG_LOAD_LIMIT} packages are listed; search to narrow them.`}
      />
      {groupPicker ?? (
        <PickList
          title="Devices"
          headerExtra={targetSwitch}
          noun={['device', 'devices']}
          items={deviceItems}
          selectedIds={deviceIds}
          onChange={onDevicesChange}
          error={devicesError}
          searchPlaceholder="Search hostname or IP..."
          isLoading={isLoading}
          isDisabled={isDisabled}
          hint={
            <>
              Only devices that are online or logged in are offered.
              {leftOutNote && (
                <span
                  className="mt-1 block font-medium text-amber-700 dark:text-amber-300"
                  data-testid="devices-left-out"
                >
                  {leftOutNote}
                </span>
              )}
            </>
          }
        />
      )}
    </>
  );
}
