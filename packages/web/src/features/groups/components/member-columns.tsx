import { Link } from 'react-router';
import { X } from 'lucide-react';
import { osTypeLabel } from '@outpost/contract/devices';
import { StatusBadge } from '../../../components/ui/badge';
import { IconButton } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { relativeDay, relativeTime } from '../../../lib/format';
import type { GroupMember } from '../api/groups';

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** A group's members (docs/product/device-sets.md#groups "Members"); Remove for a static group's editors. */
export function memberColumns({ onRemove }: { onRemove?: (m: GroupMember) => void }): Column<GroupMember>[] {
  return [
    {
      id: 'device',
      header: 'Device',
      sticky: true,
      cell: (m) => (
        <Link
          to={`/devices/${m.device_guid}`}
          className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 hover:underline dark:text-white dark:hover:text-indigo-300"
        >
          {m.hostname ?? `Device ${m.id}`}
        </Link>
      ),
    },
    { id: 'status', header: 'Status', label: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
    {
      id: 'os',
      header: 'Operating system',
      label: 'OS',
      cell: (m) => (
        <div className="min-w-0">
          <div className="whitespace-nowrap">{m.os_type ? osTypeLabel(m.os_type) : none}</div>
          {m.os_version && (
            <div
              title={m.os_version}
              className="max-w-56 truncate text-xs text-slate-500 dark:text-slate-400"
            >
              {m.os_version}
            </div>
          )}
        </div>
      ),
    },
    {
      id: 'site',
      header: 'Site',
      label: 'Site',
      className: 'whitespace-nowrap',
      cell: (m) => m.site_name ?? none,
    },
    {
      id: 'seen',
      header: 'Last seen',
      label: 'Last seen',
      className: 'whitespace-nowrap text-slate-500 dark:text-slate-400',
      cell: (m) => (m.last_seen ? relativeTime(m.last_seen) : 'Never'),
    },
    {
      id: 'added',
      header: 'Member since',
      label: 'Member since',
      className: 'whitespace-nowrap text-slate-500 dark:text-slate-400',
      cell: (m) => relativeDay(m.added_at),
    },
    {
      id: 'remove',
      header: <span className="sr-only">Remove</span>,
      className: 'text-right',
      isHidden: !onRemove,
      isFull: true,
      cell: (m) => (
        <IconButton
          label={`Remove ${m.hostname ?? `device ${m.id}`} from the group`}
          onClick={() => onRemove?.(m)}
        >
          <X className="size-4" />
        </IconButton>
      ),
    },
  ];
}
