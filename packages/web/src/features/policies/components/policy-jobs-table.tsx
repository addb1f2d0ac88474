import { Link } from 'react-router';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { StatusBadge } from '../../../components/ui/badge';
import type { Column } from '../../../components/ui/data-table';
import { DataTable } from '../../../components/ui/data-table';
import { formatDateTime } from '../../../lib/format';

// The deployments a policy created, each linking to its details (docs/product/device-sets.md#automation-policies).
const columns: Column<DeploymentJob>[] = [
  {
    id: 'job',
    header: 'Deployment',
    sticky: true,
    cell: (j) => (
      <Link
        to={`/deployments/${j.id}`}
        className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
      >
        {j.name}
      </Link>
    ),
  },
  { id: 'status', header: 'Status', label: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
  {
    id: 'devices',
    header: 'Devices',
    label: 'Devices',
    cell: (j) => (
      <span className="tabular-nums">
        {j.completed_devices}/{j.total_devices}
        {j.failed_devices > 0 && (
          <span className="text-red-600 dark:text-red-400"> · {j.failed_devices} failed</span>
        )}
      </span>
    ),
  },
  {
    id: 'created',
    header: 'Created',
    label: 'Created',
    className: 'whitespace-nowrap',
    cell: (j) => formatDateTime(j.created_at),
  },
];

export function PolicyJobsTable({ jobs }: { jobs: DeploymentJob[] }) {
  return <DataTable cards rows={jobs} columns={columns} />;
}
