import { Link } from 'react-router';
import { osTypeLabel } from '@outpost/contract/devices';
import type { PackageSummary } from '@outpost/contract/packages';
import { Badge } from '../../../components/ui/badge';
import type { Column } from '../../../components/ui/data-table';
import { formatDate } from '../../../lib/format';
import { PackageMoreMenu } from './package-more-menu';
import { PackageRowActions } from './package-row-actions';

/** The package list's columns (docs/product/packages.md#package-list Package list). */
export function packageColumns({
  onDelete,
  onDuplicate,
  onExport,
}: {
  onDelete: (pkg: PackageSummary) => void;
  onDuplicate: (pkg: PackageSummary, asTemplate: boolean) => void;
  onExport: (pkg: PackageSummary) => void;
}): Column<PackageSummary>[] {
  return [
    {
      id: 'package',
      header: 'Package',
      sticky: true,
      className: 'max-w-md',
      cell: (pkg) => (
        <>
          <Link
            to={`/packages/${pkg.id}/edit`}
            className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {pkg.name}
          </Link>
          {pkg.description && (
            <p className="mt-0.5 line-clamp-2 text-xs text-slate-500 dark:text-slate-400">
              {pkg.description}
            </p>
          )}
        </>
      ),
    },
    {
      id: 'os',
      header: <>OS &amp; Type</>,
      cell: (pkg) => (
        <div className="flex flex-col items-start gap-1">
          <span className="text-sm">
            {osTypeLabel(pkg.target_os)}{' '}
            <span className="text-xs text-slate-500 dark:text-slate-400">{pkg.architecture}</span>
          </span>
          {pkg.is_template ? <Badge tone="purple">Template</Badge> : <Badge tone="blue">Package</Badge>}
        </div>
      ),
    },
    {
      id: 'steps',
      header: <>Steps &amp; Version</>,
      cell: (pkg) => (
        <>
          <div className="text-sm">
            {pkg.step_count} step{pkg.step_count === 1 ? '' : 's'}
          </div>
          <div className="text-xs text-slate-500 dark:text-slate-400">v{pkg.package_version}</div>
        </>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      cell: (pkg) => (
        <>
          <div className="text-sm whitespace-nowrap">{formatDate(pkg.created_at)}</div>
          <div className="text-xs text-slate-500 dark:text-slate-400">
            by {pkg.created_by_name ?? 'Unknown'}
          </div>
        </>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      headerClassName: 'text-right',
      cell: (pkg) => (
        <div className="flex items-center justify-end gap-1.5">
          <PackageRowActions pkg={pkg} onDelete={onDelete} />
          <PackageMoreMenu pkg={pkg} onDuplicate={onDuplicate} onExport={onExport} />
        </div>
      ),
    },
  ];
}
