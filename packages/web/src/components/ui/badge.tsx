import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export type Tone = 'green' | 'red' | 'yellow' | 'blue' | 'purple' | 'gray' | 'indigo';

const tones: Record<Tone, string> = {
  green:
    'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-400 dark:ring-emerald-500/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-500/10 dark:text-red-400 dark:ring-red-500/20',
  yellow:
    'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-400 dark:ring-amber-500/20',
  blue: 'bg-sky-50 text-sky-700 ring-sky-600/20 dark:bg-sky-500/10 dark:text-sky-400 dark:ring-sky-500/20',
  purple:
    'bg-violet-50 text-violet-700 ring-violet-600/20 dark:bg-violet-500/10 dark:text-violet-400 dark:ring-violet-500/20',
  indigo:
    'bg-indigo-50 text-indigo-700 ring-indigo-600/20 dark:bg-indigo-500/10 dark:text-indigo-300 dark:ring-indigo-500/30',
  gray: 'bg-slate-100 text-slate-600 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600/40',
};
const dots: Record<Tone, string> = {
  green: 'bg-emerald-500',
  red: 'bg-red-500',
  yellow: 'bg-amber-500',
  blue: 'bg-sky-500',
  purple: 'bg-violet-500',
  indigo: 'bg-indigo-500',
  gray: 'bg-slate-400',
};

export function Badge({
  tone = 'gray',
  dot,
  children,
  className,
}: {
  tone?: Tone;
  dot?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {dot && <span className={cn('size-1.5 rounded-full', dots[tone])} aria-hidden />}
      {children}
    </span>
  );
}

const statusTones: Record<string, Tone> = {
  online: 'green',
  loggedin: 'blue',
  offline: 'gray',
  error: 'red',
  pending: 'yellow',
  running: 'blue',
  completed: 'green',
  failed: 'red',
  cancelled: 'gray',
  skipped: 'gray',
  sent: 'indigo',
};
const statusLabels: Record<string, string> = { loggedin: 'Logged in' };

/** A status word (device, agent, job, action) as a coloured badge. */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  const s = (status ?? 'unknown').toLowerCase();
  const label = statusLabels[s] ?? s.charAt(0).toUpperCase() + s.slice(1);
  return (
    <Badge tone={statusTones[s] ?? 'gray'} dot>
      {label}
    </Badge>
  );
}
