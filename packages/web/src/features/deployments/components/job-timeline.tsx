import type { ReactNode } from 'react';
import {
  AlertOctagon,
  CalendarClock,
  CheckCircle2,
  CircleDot,
  Clock,
  FileText,
  Layers,
  PauseCircle,
  PlayCircle,
  XCircle,
} from 'lucide-react';
import type { DeploymentJobDetail, JobStatus } from '@outpost/contract/deployments';
import { cn } from '../../../lib/cn';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { rolloutEvents } from '../lib/rollout-view';
import type { RolloutEvent } from '../lib/rollout-view';
import { windowWaitEvent } from '../lib/window-wait';

// docs/product/deployments.md#details Deployment details — the job's timeline (created, scheduled, started, ended);
// with a rollout, its waves starting and passing and its halts, pauses, resumes and abort (docs/product/rollouts.md#waves);
// devices waiting for their maintenance window (docs/product/rollouts.md#maintenance-windows).

type TimelineEvent = {
  key: string;
  label: string;
  at: string | null;
  icon: ReactNode;
  tone: string;
  isDone: boolean;
};

const ROLLOUT_TONES: Record<RolloutEvent['tone'], { icon: ReactNode; tone: string }> = {
  info: { icon: <Layers className="size-4" />, tone: 'bg-sky-500 text-white' },
  success: { icon: <CheckCircle2 className="size-4" />, tone: 'bg-emerald-500 text-white' },
  warn: { icon: <PauseCircle className="size-4" />, tone: 'bg-amber-500 text-white' },
  danger: { icon: <AlertOctagon className="size-4" />, tone: 'bg-red-500 text-white' },
};

function rolloutTimeline(job: DeploymentJobDetail): TimelineEvent[] {
  return job.rollout
    ? rolloutEvents(job.rollout).map((e) => ({ ...e, ...ROLLOUT_TONES[e.tone], isDone: true }))
    : [];
}

/** Devices waiting for their maintenance window, while the job may still start them. */
function windowTimeline(job: DeploymentJobDetail): TimelineEvent[] {
  const e = job.status === 'pending' || job.status === 'running' ? windowWaitEvent(job.deployments) : null;
  return e
    ? [
        {
          ...e,
          at: e.at || null,
          icon: <CalendarClock className="size-4" />,
          tone: 'bg-amber-500 text-white',
          isDone: false,
        },
      ]
    : [];
}

export function JobTimeline({ job }: { job: DeploymentJobDetail }) {
  const end: Partial<Record<JobStatus, { label: string; icon: ReactNode; tone: string }>> = {
    completed: {
      label: 'Completed',
      icon: <CheckCircle2 className="size-4" />,
      tone: 'bg-emerald-500 text-white',
    },
    failed: { label: 'Failed', icon: <XCircle className="size-4" />, tone: 'bg-red-500 text-white' },
    cancelled: { label: 'Cancelled', icon: <XCircle className="size-4" />, tone: 'bg-slate-500 text-white' },
  };
  const finished = end[job.status];
  const events: TimelineEvent[] = [
    {
      key: 'created',
      label: `Created by ${job.created_by_name ?? 'Unknown'}`,
      at: job.created_at,
      icon: <FileText className="size-4" />,
      tone: 'bg-indigo-500 text-white',
      isDone: true,
    },
    ...(job.scheduled_at
      ? [
          {
            key: 'scheduled',
            label: 'Scheduled',
            at: job.scheduled_at,
            icon: <CalendarClock className="size-4" />,
            tone: 'bg-violet-500 text-white',
            isDone: true,
          },
        ]
      : []),
    {
      key: 'started',
      label: job.started_at ? 'Started' : job.status === 'pending' ? 'Waiting to start' : 'Not started',
      at: job.started_at,
      icon: <PlayCircle className="size-4" />,
      tone: job.started_at ? 'bg-sky-500 text-white' : '',
      isDone: Boolean(job.started_at),
    },
    ...rolloutTimeline(job),
    ...windowTimeline(job),
    finished
      ? { key: 'end', ...finished, at: job.completed_at, isDone: true }
      : {
          key: 'end',
          label: job.status === 'running' ? 'Running' : 'Finishes',
          at: null,
          icon: job.status === 'running' ? <CircleDot className="size-4" /> : <Clock className="size-4" />,
          tone:
            job.status === 'running' ? 'bg-sky-100 text-sky-600 dark:bg-sky-500/20 dark:text-sky-300' : '',
          isDone: false,
        },
  ];
  return (
    <ol className="px-5 py-4" aria-label="Timeline">
      {events.map((e, i) => (
        <li key={e.key} className="relative flex gap-3 pb-5 last:pb-0">
          {i < events.length - 1 && (
            <span
              className="absolute top-8 bottom-0 left-[13px] w-px bg-slate-200 dark:bg-slate-700"
              aria-hidden
            />
          )}
          <span
            className={cn(
              'relative flex size-7 shrink-0 items-center justify-center rounded-full',
              e.tone ||
                'bg-slate-100 text-slate-400 ring-1 ring-slate-200 dark:bg-slate-800 dark:text-slate-500 dark:ring-slate-700',
            )}
            aria-hidden
          >
            {e.icon}
          </span>
          <div className="min-w-0 pt-0.5">
            <p
              className={cn(
                'text-sm font-medium',
                e.isDone ? 'text-slate-900 dark:text-white' : 'text-slate-500 dark:text-slate-400',
              )}
            >
              {e.label}
            </p>
            {e.at && (
              <p className="text-xs text-slate-500 dark:text-slate-400" title={formatDateTime(e.at)}>
                {formatDateTime(e.at)} · {relativeTime(e.at)}
              </p>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
