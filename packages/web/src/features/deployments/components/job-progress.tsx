import type { DeploymentJob } from '@outpost/contract/deployments';
import { jobProgress } from '@outpost/contract/deployments';
import { cn } from '../../../lib/cn';

// docs/product/deployments.md#job-statuses — progress is completed over total, rounded; the failed share is shown in
// red beside it so a job that ends failed reads at a glance.
export function JobProgress({
  job,
  className,
  showCounts = true,
}: {
  job: Pick<DeploymentJob, 'total_devices' | 'completed_devices' | 'failed_devices' | 'status'>;
  className?: string;
  showCounts?: boolean;
}) {
  const { percent } = jobProgress(job);
  const failedShare = job.total_devices > 0 ? (job.failed_devices / job.total_devices) * 100 : 0;
  const done = job.completed_devices + job.failed_devices;
  return (
    <div className={cn('min-w-40', className)}>
      <div className="flex items-center gap-2">
        <div
          role="progressbar"
          aria-label="Deployment progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="flex h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700/70"
        >
          <div
            className={cn(
              'h-full transition-[width] duration-500',
              job.status === 'cancelled' ? 'bg-slate-400' : 'bg-emerald-500',
            )}
            style={{ width: `${percent}%` }}
          />
          <div
            className="h-full bg-red-500 transition-[width] duration-500"
            style={{ width: `${failedShare}%` }}
          />
        </div>
        <span
          className="w-10 text-right text-xs font-semibold text-slate-700 tabular-nums dark:text-slate-200"
          data-testid="progress-percent"
        >
          {percent}%
        </span>
      </div>
      {showCounts && (
        <p className="mt-1 text-xs text-slate-500 tabular-nums dark:text-slate-400">
          {done} of {job.total_devices} device{job.total_devices === 1 ? '' : 's'}
          {job.failed_devices > 0 && (
            <span className="text-red-600 dark:text-red-400"> · {job.failed_devices} failed</span>
          )}
        </p>
      )}
    </div>
  );
}
