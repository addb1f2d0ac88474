import { CalendarClock, MapPin, Pencil, Trash2, Wrench } from 'lucide-react';
import { timezoneLabel } from '@outpost/contract/sites';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime, relativeDay } from '../../../lib/format';
import type { Site } from '../api/sites';

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

const location = (s: Site) => [s.city, s.state, s.country].filter(Boolean).join(', ');

/** The sites list's columns (docs/product/administration.md#sites Sites); Edit and Delete only for administrators. */
export function siteColumns({
  isAdmin,
  onEdit,
  onDelete,
  onWindows,
  onMaintenance,
}: {
  isAdmin: boolean;
  onEdit: (site: Site) => void;
  onDelete: (site: Site) => void;
  /** the site's maintenance windows (docs/product/rollouts.md#maintenance-windows) */
  onWindows?: (site: Site) => void;
  /** maintenance mode (docs/product/monitoring.md#maintenance-mode), administrators */
  onMaintenance?: (site: Site) => void;
}): Column<Site>[] {
  return [
    {
      id: 'site',
      header: 'Site',
      sticky: true,
      cell: (s) => (
        <>
          <div className="font-medium whitespace-nowrap text-slate-900 dark:text-white">{s.site_name}</div>
          {s.description && (
            <div
              title={s.description}
              className="mt-0.5 max-w-72 truncate text-xs text-slate-500 dark:text-slate-400"
            >
              {s.description}
            </div>
          )}
        </>
      ),
    },
    {
      id: 'code',
      header: 'Code',
      cell: (s) => (
        <span className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {s.site_code}
        </span>
      ),
    },
    {
      id: 'location',
      header: 'Location',
      className: 'whitespace-nowrap',
      cell: (s) =>
        location(s) ? (
          <span className="inline-flex items-center gap-1.5">
            <MapPin className="size-3.5 text-slate-400" aria-hidden />
            {location(s)}
          </span>
        ) : (
          none
        ),
    },
    {
      id: 'timezone',
      header: 'Timezone',
      className: 'whitespace-nowrap',
      cell: (s) => (s.timezone ? <span title={s.timezone}>{timezoneLabel(s.timezone)}</span> : none),
    },
    {
      id: 'devices',
      header: 'Devices',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (s) => s.device_count ?? 0,
    },
    {
      id: 'created',
      header: 'Created',
      className: 'whitespace-nowrap',
      title: (s) => formatDateTime(s.created_at),
      cell: (s) => relativeDay(s.created_at),
    },
    {
      id: 'windows',
      header: <span className="sr-only">Maintenance windows</span>,
      className: 'text-right whitespace-nowrap',
      isHidden: !onWindows,
      cell: (s) => (
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Maintenance windows of ${s.site_name}`}
          title="Maintenance windows"
          icon={<CalendarClock className="size-3.5" />}
          onClick={() => onWindows?.(s)}
        >
          Windows
        </Button>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      headerClassName: 'text-right',
      className: 'text-right whitespace-nowrap',
      isHidden: !isAdmin,
      cell: (s) => (
        <>
          {onMaintenance && (
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Maintenance mode of ${s.site_name}`}
              title="Maintenance mode"
              icon={<Wrench className="size-3.5" />}
              onClick={() => onMaintenance(s)}
            />
          )}
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit ${s.site_name}`}
            icon={<Pencil className="size-3.5" />}
            onClick={() => onEdit(s)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${s.site_name}`}
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-3.5" />}
            onClick={() => onDelete(s)}
          />
        </>
      ),
    },
  ];
}
