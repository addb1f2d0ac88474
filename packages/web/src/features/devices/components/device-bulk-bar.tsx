import { Power, RotateCcw, Tag as TagIcon } from 'lucide-react';
import type { DeviceListItem } from '@outpost/contract/devices';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import type { useDeviceActions } from '../lib/use-device-actions';
import { DeployPackageButton } from './deploy-package-button';
import { RunScriptButton } from './run-script-button';
import { SetFieldButton } from './set-field-button';

/**
 * The device list's selection bar (docs/product/devices.md#device-list): deploy, tags
 * (docs/product/device-sets.md#tags), a custom field's value, restart and shutdown for the
 * selected devices.
 */
export function DeviceBulkBar({
  devices,
  actions,
  onClear,
  onTags,
}: {
  devices: DeviceListItem[];
  actions: ReturnType<typeof useDeviceActions>;
  onClear: () => void;
  onTags: () => void;
}) {
  return (
    <BulkActionBar count={devices.length} noun={['device', 'devices']} onClear={onClear}>
      <DeployPackageButton devices={devices} onNothingSelected={actions.setError} onDeployed={onClear} />
      <RunScriptButton devices={devices} />
      <Button size="sm" icon={<TagIcon className="size-3.5" />} onClick={onTags}>
        Tags
      </Button>
      <SetFieldButton devices={devices} onDone={onClear} />
      <Button
        size="sm"
        icon={<RotateCcw className="size-3.5" />}
        onClick={() => actions.ask('restart', devices)}
      >
        Restart
      </Button>
      <Button
        size="sm"
        variant="danger"
        icon={<Power className="size-3.5" />}
        onClick={() => actions.ask('shutdown', devices)}
      >
        Shutdown
      </Button>
    </BulkActionBar>
  );
}
