import { Trash2 } from 'lucide-react';
import type { DeviceListItem } from '@outpost/contract/devices';
import { osTypeLabel } from '@outpost/contract/devices';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDate, formatDateTime, relativeTime } from '../../../lib/format';
import { OutdatedBadge } from './update-agents';

/** The agents list's columns (docs/product/administration.md#agents Agents); Delete only for administrators. */
export function agentColumns({
  isAdmin,
  releases,
  onDelete,
}: {
  isAdmin: boolean;
  releases: AgentRelease[] | undefined;
  onDelete: (device: DeviceListItem) => void;
}): Column<DeviceListItem>[] {
  return [
    {
      id: 'hostname',
      header: 'Hostname',
      sticky: true,
      className: 'whitespace-nowrap',
      cell: (d) => (
        <>
          <div className="font-medium text-slate-900 dark:text-white">{d.hostname ?? `Device ${d.id}`}</div>
          <div className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            <abbr title="Serial number" className="no-underline">
              S/N
            </abbr>{' '}
            <span className="font-mono">{d.serial_number || 'Unknown'}</span>
          </div>
        </>
      ),
    },
    {
      id: 'version',
      header: 'Agent Version',
      label: 'Agent Version',
      className: 'whitespace-nowrap tabular-nums',
      cell: (d) => (
        <>
          {d.agent_version || '1.0.0'}
          <OutdatedBadge device={d} releases={releases} />
        </>
      ),
    },
    {
      id: 'os',
      header: 'OS',
      label: 'OS',
      className: 'whitespace-nowrap',
      cell: (d) => osTypeLabel(d.os_type),
    },
    { id: 'status', header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
    {
      id: 'site',
      header: 'Site',
      label: 'Site',
      className: 'whitespace-nowrap',
      cell: (d) => d.site_name || 'Unassigned',
    },
    {
      id: 'last-check-in',
      header: 'Last Check-in',
      label: 'Last Check-in',
      className: 'whitespace-nowrap',
      title: (d) => formatDateTime(d.last_seen),
      cell: (d) => relativeTime(d.last_seen),
    },
    {
      id: 'first-seen',
      header: 'First Seen',
      label: 'First Seen',
      className: 'whitespace-nowrap',
      cell: (d) => formatDate(d.created_at || d.updated_at),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      headerClassName: 'text-right',
      label: 'Actions',
      className: 'text-right',
      isHidden: !isAdmin,
      cell: (d) => (
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Delete ${d.hostname ?? d.id}`}
          className="text-red-600 hover:text-red-700 dark:text-red-400"
          icon={<Trash2 className="size-3.5" />}
          onClick={() => onDelete(d)}
        />
      ),
    },
  ];
}
