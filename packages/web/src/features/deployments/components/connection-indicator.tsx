import type { SocketStatus } from '../../../lib/socket';
import { useLiveSocket } from '../../../lib/socket';
import { cn } from '../../../lib/cn';

// docs/product/deployments.md#history and #job-statuses — the deployments' connection indicator: connected, connecting,
// error and offline, shown as Live, Connecting..., Connection Error, Offline. It reads the shell's
// one live socket.

const states: Record<SocketStatus, { label: string; dot: string; box: string }> = {
  connected: {
    label: 'Live',
    dot: 'bg-emerald-500',
    box: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-400 dark:ring-emerald-500/20',
  },
  connecting: {
    label: 'Connecting...',
    dot: 'bg-amber-500 animate-pulse',
    box: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/20',
  },
  error: {
    label: 'Connection Error',
    dot: 'bg-red-500',
    box: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-500/10 dark:text-red-400 dark:ring-red-500/20',
  },
  disconnected: {
    label: 'Offline',
    dot: 'bg-slate-400',
    box: 'bg-slate-100 text-slate-600 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600/40',
  },
};

export function ConnectionIndicator() {
  const { status } = useLiveSocket();
  const s = states[status];
  return (
    <span
      role="status"
      data-testid="connection-indicator"
      data-status={status}
      title={
        status === 'connected' ? 'Progress updates arrive as they happen' : 'Progress updates are paused'
      }
      // on a phone the header's buttons wrap: one width for "Connecting..." and "Live", so the
      // socket connecting does not change the wrap and move the page (Lighthouse mobile: layout
      // shift 0.35 on /deployments)
      className={cn(
        'inline-flex h-9 min-w-[8.5rem] items-center justify-center gap-2 rounded-md px-3 text-sm font-medium ring-1 ring-inset sm:min-w-0 sm:justify-start',
        s.box,
      )}
    >
      <span className="relative flex size-2">
        {status === 'connected' && (
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />
        )}
        <span className={cn('relative inline-flex size-2 rounded-full', s.dot)} />
      </span>
      {s.label}
    </span>
  );
}
