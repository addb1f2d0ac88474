import { useState } from 'react';
import { RefreshCw, Wrench } from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import { DeviceAlertBadge } from '../../../components/alerts/severity-badge';
import { MaintenanceBanner } from '../../../components/alerts/maintenance-banner';
import { MaintenanceDialog } from '../../../components/alerts/maintenance-dialog';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlertBadges, useMaintenance, useSetMaintenance } from '../../../lib/api/alerts';
import { deviceName } from '../lib/device-format';
import { RunScriptButton } from './run-script-button';

// docs/product/monitoring.md#maintenance-mode on the device detail: the device's open alerts badge
// (to /alerts?device=guid), Maintenance (a dialog), and the banner while it or its site is in
// maintenance, with End maintenance for the device's own.

export function DeviceAlertsBadge({ guid }: { guid: string }) {
  const badges = useAlertBadges([guid]);
  return <DeviceAlertBadge guid={guid} badge={badges.data?.[guid]} className="px-2 py-1" />;
}

function MaintenanceButton({ guid, name }: { guid: string; name: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const target = { kind: 'devices' as const, id: guid };
  const maintenance = useMaintenance(target);
  if (maintenance.data?.scope === 'device') {
    return null;
  }
  return (
    <>
      <Button icon={<Wrench className="size-4" />} onClick={() => setIsOpen(true)}>
        Maintenance
      </Button>
      <MaintenanceDialog target={isOpen ? target : null} name={name} onClose={() => setIsOpen(false)} />
    </>
  );
}

export function DeviceMaintenanceBanner({ guid }: { guid: string }) {
  const target = { kind: 'devices' as const, id: guid };
  const maintenance = useMaintenance(target);
  const end = useSetMaintenance();
  const toast = useToast();
  const m = maintenance.data;
  if (!m) {
    return null;
  }
  async function endIt() {
    try {
      await end.mutateAsync({ target, body: null });
      toast.show({ type: 'success', title: 'Maintenance ended', message: 'Alerts are sent again.' });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not end maintenance', message: errorMessage(err, '') });
    }
  }
  return (
    <div className="mb-6">
      <MaintenanceBanner
        maintenance={m}
        onEnd={m.scope === 'device' ? () => void endIt() : undefined}
        isEnding={end.isPending}
      />
    </div>
  );
}

/** The device header's buttons: Maintenance and Refresh. */
export function DeviceHeaderActions({
  device,
  isFetching,
  onRefresh,
}: {
  device: Device;
  isFetching: boolean;
  onRefresh: () => void;
}) {
  return (
    <div className="flex shrink-0 flex-wrap gap-2">
      <MaintenanceButton guid={device.device_guid} name={deviceName(device)} />
      <RunScriptButton devices={[device]} size="md" />
      <Button
        onClick={onRefresh}
        icon={<RefreshCw className={isFetching ? 'size-4 animate-spin' : 'size-4'} />}
      >
        Refresh
      </Button>
    </div>
  );
}
