import type { DeploymentJobDetail, JobStatus } from '@outpost/contract/deployments';
import { jobProgress } from '@outpost/contract/deployments';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { formatJobDuration } from '../lib/durations';
import { JobProgress } from './job-progress';

/** A deployment's progress: the percent done, its duration, the bar and the device counts. */
export function JobProgressCard({ job }: { job: DeploymentJobDetail }) {
  const { percent, pending, cancelled } = jobProgress(job);
  return (
    <Card className="h-full">
      <CardHeader title="Progress" description={progressSentence(job.status)} />
      <div className="px-5 py-5">
        <div className="flex items-end justify-between gap-4">
          <div>
            <div
              className="text-4xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white"
              data-testid="job-percent"
            >
              {percent}%
            </div>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">of devices completed</p>
          </div>
          <div className="text-right text-sm text-slate-500 dark:text-slate-400">
            Duration{' '}
            <span className="font-medium text-slate-800 dark:text-slate-100">
              {formatJobDuration(job.started_at, job.completed_at)}
            </span>
          </div>
        </div>
        <JobProgress job={job} showCounts={false} className="mt-4" />
        <dl className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Count label="Total" value={job.total_devices} />
          <Count label="Completed" value={job.completed_devices} tone="green" />
          <Count label="Failed" value={job.failed_devices} tone="red" />
          {cancelled > 0 ? (
            <Count label="Cancelled" value={cancelled} />
          ) : (
            <Count label="Pending" value={pending} tone="amber" />
          )}
        </dl>
      </div>
    </Card>
  );
}

function progressSentence(status: JobStatus): string {
  switch (status) {
    case 'pending':
      return 'Waiting to start';
    case 'running':
      return 'Installing on devices now';
    case 'completed':
      return 'Finished on every device';
    case 'failed':
      return 'Finished with failures';
    case 'cancelled':
      return 'Cancelled before it finished';
  }
}

const countTones = {
  green: 'text-emerald-600 dark:text-emerald-400',
  red: 'text-red-600 dark:text-red-400',
  amber: 'text-amber-600 dark:text-amber-400',
};

function Count({ label, value, tone }: { label: string; value: number; tone?: keyof typeof countTones }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200/70 ring-inset dark:bg-slate-800/50 dark:ring-slate-700/60">
      <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd
        className={cn(
          'mt-0.5 text-xl font-semibold tabular-nums',
          tone && value > 0 ? countTones[tone] : 'text-slate-900 dark:text-white',
        )}
        data-testid={`count-${label.toLowerCase()}`}
      >
        {value}
      </dd>
    </div>
  );
}
