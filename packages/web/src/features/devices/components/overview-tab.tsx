import { HardDrive, AlertTriangle } from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/states';
import { formatDate, formatDateTime, relativeTime } from '../../../lib/format';
import { notReportedText, osLabel } from '../lib/device-format';
import { CustomFieldsCard } from './custom-fields-card';
import { DetailList } from './detail-list';
import { RefreshInventoryButton } from './refresh-button';
import { StorageBar } from './storage-bar';

const gb = (n: number) => `${n.toFixed(n >= 100 ? 0 : 1)} GB`;

export function OverviewTab({ device, onReload }: { device: Device; onReload: () => void }) {
  const hw = device.hardware_info;
  const memoryGb = hw?.memoryModules.reduce((sum, m) => sum + m.capacity, 0) ?? 0;
  const storageGb = (hw?.storageDevices.reduce((sum, s) => sum + s.totalSize, 0) ?? 0) / 1024 ** 3;
  const isOffline = device.status === 'offline';
  const notReported = notReportedText(device.not_reported);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader title="Device Information" />
        <DetailList
          items={[
            ['Hostname', device.hostname ?? '—'],
            ['Serial Number', device.serial_number ?? 'Unknown'],
            ['Operating System', osLabel(device)],
            ['Architecture', device.architecture ?? 'Unknown'],
            ['Site', device.site_name ?? 'No site'],
            ['Agent Version', device.agent_version ?? 'Unknown'],
            [
              'Last Seen',
              <span title={formatDateTime(device.last_seen)}>{relativeTime(device.last_seen)}</span>,
            ],
            ['Created', formatDate(device.created_at)],
          ]}
        />
      </Card>
      <Card>
        <CardHeader
          title="System Summary"
          description={
            device.last_inventory_update
              ? `Inventory updated ${relativeTime(device.last_inventory_update).toLowerCase()}`
              : 'No inventory reported yet'
          }
          actions={
            <RefreshInventoryButton
              idOrGuid={device.device_guid}
              kind="hardware"
              onReload={onReload}
              isDisabled={isOffline}
            />
          }
        />
        <DetailList
          items={[
            ['Manufacturer', hw?.systemInfo.manufacturer || device.manufacturer || 'Unknown'],
            ['Model', hw?.systemInfo.model || device.model || 'Unknown'],
            ['CPU', hw?.cpu.name || 'Unknown'],
            ['Memory', hw ? gb(memoryGb) : 'Unknown'],
            ['Storage', hw ? gb(storageGb) : 'Unknown'],
            [
              'Last inventory update',
              device.last_inventory_update ? formatDateTime(device.last_inventory_update) : 'Never',
            ],
          ]}
        />
        {notReported && (
          <p
            data-testid="inventory-not-reported"
            className="flex items-start gap-2 border-t border-slate-100 px-5 py-3 text-sm text-amber-700 dark:border-slate-800 dark:text-amber-400"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>Not reported: {notReported}</span>
          </p>
        )}
      </Card>
      <Card className="lg:col-span-2">
        <CardHeader
          title="Storage Usage"
          description="Green up to 75 % used, yellow above 75 %, red above 90 %."
        />
        {hw && hw.storageDevices.length > 0 ? (
          <div className="grid gap-6 px-5 py-5 md:grid-cols-2">
            {hw.storageDevices.map((s) => (
              <StorageBar
                key={s.deviceId}
                label={s.deviceId}
                mediaType={s.mediaType}
                totalSize={s.totalSize}
                freeSpace={s.freeSpace}
              />
            ))}
          </div>
        ) : (
          <EmptyState
            icon={<HardDrive className="size-6" />}
            title="No storage reported"
            message="The agent has not reported any disks yet."
          />
        )}
      </Card>
      <CustomFieldsCard device={device} />
    </div>
  );
}
