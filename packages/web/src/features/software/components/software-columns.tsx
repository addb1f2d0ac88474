import { Link } from 'react-router';
import { osTypeLabel } from '@outpost/contract/devices';
import { StatusBadge } from '../../../components/ui/badge';
import type { Column } from '../../../components/ui/data-table';
import type { FleetSoftwareTitle, SoftwareDevice } from '../api/software';

// docs/product/device-sets.md#fleet-software: the columns of the titles and of a title's devices.

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;
const VERSIONS_SHOWN = 3;

/** The link to a title's devices (one version, or every version). */
export const titleHref = (name: string, version?: string) =>
  `/software/title?${new URLSearchParams(version === undefined ? { name } : { name, version }).toString()}`;

export const versionLabel = (version: string) => version || 'No version';

export type TitleRow = FleetSoftwareTitle & { id: number };

export function titleColumns(): Column<TitleRow>[] {
  return [
    {
      id: 'title',
      header: 'Title',
      sticky: true,
      cell: (t) => (
        <Link
          to={titleHref(t.name)}
          className="font-medium break-words text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
        >
          {t.name}
        </Link>
      ),
    },
    {
      id: 'publisher',
      header: 'Publisher',
      label: 'Publisher',
      cell: (t) => t.publisher ?? none,
    },
    {
      id: 'versions',
      header: 'Versions',
      label: 'Versions',
      cell: (t) => (
        <div className="flex flex-wrap gap-1.5">
          {t.versions.slice(0, VERSIONS_SHOWN).map((v) => (
            <Link
              key={v.version}
              to={titleHref(t.name, v.version)}
              title={`${v.device_count} ${v.device_count === 1 ? 'device' : 'devices'} with ${versionLabel(v.version)}`}
              className="inline-flex items-center gap-1 rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 hover:bg-indigo-50 hover:text-indigo-700 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-indigo-950 dark:hover:text-indigo-300"
            >
              {versionLabel(v.version)}
              <span className="font-sans text-slate-600 dark:text-slate-300">· {v.device_count}</span>
            </Link>
          ))}
          {t.versions.length > VERSIONS_SHOWN && (
            <Link
              to={titleHref(t.name)}
              className="px-1 py-0.5 text-xs text-slate-500 hover:text-indigo-600 dark:text-slate-400 dark:hover:text-indigo-400"
            >
              +{t.versions.length - VERSIONS_SHOWN} more
            </Link>
          )}
        </div>
      ),
    },
    {
      id: 'devices',
      header: 'Devices',
      label: 'Devices',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums whitespace-nowrap font-medium text-slate-900 dark:text-white',
      cell: (t) => t.device_count.toLocaleString(),
    },
  ];
}

export function titleDeviceColumns(): Column<SoftwareDevice>[] {
  return [
    {
      id: 'device',
      header: 'Device',
      sticky: true,
      cell: (d) => (
        <Link
          to={`/devices/${d.device_guid}`}
          className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
        >
          {d.hostname ?? d.device_guid}
        </Link>
      ),
    },
    {
      id: 'version',
      header: 'Version',
      label: 'Version',
      cell: (d) => <span className="font-mono text-xs">{versionLabel(d.version)}</span>,
    },
    { id: 'status', header: 'Status', label: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
    { id: 'os', header: 'OS', label: 'OS', cell: (d) => (d.os_type ? osTypeLabel(d.os_type) : none) },
    { id: 'site', header: 'Site', label: 'Site', cell: (d) => d.site_name ?? none },
  ];
}
