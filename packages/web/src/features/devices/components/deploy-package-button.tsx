import { Package } from 'lucide-react';
import type { DeviceListItem } from '@outpost/contract/devices';
import { isDeviceActionable } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import { useDeployDialog } from '../../../lib/deploy-dialog';
import { deviceName } from '../lib/device-format';

// docs/product/devices.md#device-list — Deploy Package (bulk bar and row) opens the deploy dialog with the
// devices preselected; docs/product/devices.md#device-actions — with no device selected: 'Please select devices first'.
export function DeployPackageButton({
  devices,
  onNothingSelected,
  onDeployed,
  size = 'sm',
  label = 'Deploy Package',
  iconOnly,
}: {
  devices: readonly Pick<DeviceListItem, 'id' | 'hostname' | 'ip_address' | 'status'>[];
  onNothingSelected: (message: string) => void;
  onDeployed?: () => void;
  size?: 'sm' | 'md';
  label?: string;
  iconOnly?: boolean;
}) {
  const { openDeployDialog } = useDeployDialog();
  const open = () => {
    const targets = devices.filter((d) => isDeviceActionable(d.status));
    if (targets.length === 0) {
      onNothingSelected(deviceMessages.selectDevicesFirst);
      return;
    }
    openDeployDialog({
      devices: targets.map((d) => ({
        id: d.id,
        hostname: d.hostname,
        ip_address: d.ip_address,
        status: d.status,
      })),
      onSuccess: onDeployed,
    });
  };
  const name = devices.length === 1 && devices[0] ? ` ${deviceName(devices[0])}` : '';
  return (
    <Button
      size={size}
      onClick={open}
      aria-label={iconOnly ? `${label}${name}` : undefined}
      title={iconOnly ? label : undefined}
      variant={iconOnly ? 'ghost' : 'secondary'}
      icon={<Package className={iconOnly ? 'size-4' : 'size-3.5'} />}
    >
      {!iconOnly && label}
    </Button>
  );
}
