import { Link } from 'react-router';
import { CalendarClock, Eye, XCircle } from 'lucide-react';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import { Badge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { JobProgress } from './job-progress';

/** The deployment history's columns (docs/product/deployments.md#history); Cancel while a job is active. */
export function deploymentColumns({
  onCancel,
  onView,
}: {
  onCancel: (job: DeploymentJob) => void;
  onView: (job: DeploymentJob) => void;
}): Column<DeploymentJob>[] {
  return [
    {
      id: 'job',
      header: 'Job Details',
      sticky: true,
      className: 'max-w-sm min-w-56',
      cell: (job) => (
        <>
          <Link
            to={`/deployments/${job.id}`}
            className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {job.name}
          </Link>
          {job.description && (
            <p className="mt-0.5 line-clamp-1 text-xs text-slate-500 dark:text-slate-400">
              {job.description}
            </p>
          )}
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            #{job.id} · {job.total_devices} device{job.total_devices === 1 ? '' : 's'}
          </p>
        </>
      ),
    },
    {
      id: 'status',
      header: <>Status &amp; Progress</>,
      className: 'min-w-64',
      isFull: true,
      cell: (job) => (
        <>
          <div className="mb-1.5 flex items-center gap-2">
            <StatusBadge status={job.status} />
            {(job.rollout_state === 'paused' || job.rollout_state === 'halted') && (
              // docs/product/rollouts.md#rollout-actions — a rollout that waits for someone
              <Badge tone={job.rollout_state === 'halted' ? 'red' : 'yellow'}>
                {job.rollout_state === 'halted' ? 'Rollout halted' : 'Rollout paused'}
              </Badge>
            )}
            {job.status === 'pending' && job.scheduled_at && (
              <span
                className="inline-flex items-center gap-1 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400"
                title="Scheduled"
              >
                <CalendarClock className="size-3.5" aria-hidden />
                {formatDateTime(job.scheduled_at)}
              </span>
            )}
          </div>
          <JobProgress job={job} />
        </>
      ),
    },
    {
      id: 'package',
      header: 'Package',
      label: 'Package',
      className: 'max-w-56',
      cell: (job) => <span className="line-clamp-2">{job.package_name}</span>,
    },
    {
      id: 'created',
      header: 'Created',
      label: 'Created',
      className: 'whitespace-nowrap',
      cell: (job) => (
        <>
          <div title={formatDateTime(job.created_at)}>{relativeTime(job.created_at)}</div>
          <div className="text-xs text-slate-500 dark:text-slate-400">
            by {job.created_by_name ?? 'Unknown'}
          </div>
        </>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      headerClassName: 'text-right',
      label: 'Actions',
      cell: (job) => (
        <div className="flex items-center justify-end gap-1.5">
          {isJobActive(job.status) && (
            <Button
              size="sm"
              variant="ghost"
              className="text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10"
              icon={<XCircle className="size-3.5" />}
              aria-label={`Cancel ${job.name}`}
              onClick={() => onCancel(job)}
            >
              Cancel
            </Button>
          )}
          <Button
            size="sm"
            icon={<Eye className="size-3.5" />}
            aria-label={`View ${job.name}`}
            onClick={() => onView(job)}
          >
            View
          </Button>
        </div>
      ),
    },
  ];
}
