import { Link } from 'react-router';
import { Power, RotateCcw } from 'lucide-react';
import type { DeviceActionType, DeviceListItem } from '@outpost/contract/devices';
import { isDeviceActionable } from '@outpost/contract/devices';
import { DeviceAlertBadge } from '../../../components/alerts/severity-badge';
import type { AlertBadge } from '../../../lib/api/alerts';
import { StatusBadge } from '../../../components/ui/badge';
import { TagList } from '../../../components/ui/tag-chip';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { deviceHref, deviceName, osParts } from '../lib/device-format';
import { DeployPackageButton } from './deploy-package-button';
import { UnavailableActions } from './unavailable-actions';

/** The device list's columns (docs/product/devices.md#device-list). */
export function deviceColumns({
  onAsk,
  onNothingSelected,
  fieldColumns = [],
  alertBadges,
}: {
  /** open alerts per device guid (docs/product/monitoring.md#the-alerts-page: badges) */
  alertBadges?: Record<string, AlertBadge>;
  onAsk: (action: DeviceActionType, devices: DeviceListItem[]) => void;
  onNothingSelected: (message: string) => void;
  /** custom fields shown as columns (docs/product/device-sets.md#device-list-filters) */
  fieldColumns?: { key: string; name: string }[];
}): Column<DeviceListItem>[] {
  return [
    {
      id: 'device',
      header: 'Device',
      sticky: true,
      cell: (d) => (
        <>
          <Link
            to={deviceHref(d)}
            className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {deviceName(d)}
          </Link>
          <div className="mt-0.5 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">
            {d.ip_address ?? 'No IP'}
            {d.agent_version && <span className="ml-2">· Agent {d.agent_version}</span>}
          </div>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => (
        <span className="inline-flex items-center gap-1.5">
          <StatusBadge status={d.status} />
          <DeviceAlertBadge guid={d.device_guid} badge={alertBadges?.[d.device_guid]} />
        </span>
      ),
    },
    {
      id: 'os',
      header: 'OS',
      label: 'OS',
      className: 'min-w-36',
      cell: (d) => (
        <>
          <div>{osParts(d).name}</div>
          {osParts(d).build && (
            <div className="text-xs text-slate-500 dark:text-slate-400">{osParts(d).build}</div>
          )}
        </>
      ),
    },
    {
      id: 'site',
      header: 'Site',
      label: 'Site',
      className: 'whitespace-nowrap',
      cell: (d) => d.site_name ?? 'No site',
    },
    {
      id: 'tags',
      header: 'Tags',
      label: 'Tags',
      className: 'min-w-32',
      cell: (d) =>
        d.tags?.length ? (
          <TagList tags={d.tags} />
        ) : (
          <span className="text-slate-400 dark:text-slate-500">—</span>
        ),
    },
    ...fieldColumns.map((f): Column<DeviceListItem> => ({
      id: `field-${f.key}`,
      header: f.name,
      label: f.name,
      className: 'max-w-48 truncate whitespace-nowrap',
      title: (d) => d.fields?.[f.key] ?? undefined,
      cell: (d) => d.fields?.[f.key] ?? <span className="text-slate-400 dark:text-slate-500">—</span>,
    })),
    {
      id: 'last-seen',
      header: 'Last Seen',
      label: 'Last Seen',
      className: 'whitespace-nowrap',
      title: (d) => formatDateTime(d.last_seen),
      cell: (d) => relativeTime(d.last_seen),
    },
    {
      id: 'actions',
      header: 'Actions',
      headerClassName: 'text-right',
      label: 'Actions',
      className: 'text-right',
      cell: (d) =>
        isDeviceActionable(d.status) ? (
          <div className="flex justify-end gap-0.5">
            <DeployPackageButton devices={[d]} onNothingSelected={onNothingSelected} iconOnly />
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Restart Device ${deviceName(d)}`}
              title="Restart Device"
              icon={<RotateCcw className="size-4" />}
              onClick={() => onAsk('restart', [d])}
            />
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Shutdown Device ${deviceName(d)}`}
              title="Shutdown Device"
              className="text-red-600 hover:text-red-700 dark:text-red-400"
              icon={<Power className="size-4" />}
              onClick={() => onAsk('shutdown', [d])}
            />
          </div>
        ) : (
          <UnavailableActions status={d.status} />
        ),
    },
  ];
}
