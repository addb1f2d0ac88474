import { RefreshCw } from 'lucide-react';
import { useLiveSocket } from '../../lib/socket';
import { cn } from '../../lib/cn';

// docs/product/live-updates.md#connection — a small badge shows 'Live Updates' or 'Disconnected' per the websocket state.
// Once the socket has stopped retrying (docs/product/live-updates.md#connection), a Reconnect action sits beside it; the
// socket also comes back by itself when the tab is shown again or the browser is back online.
export function LiveBadge() {
  const { status, hasGivenUp, reconnect } = useLiveSocket();
  const isLive = status === 'connected';
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        data-testid="live-badge"
        data-status={status}
        className={cn(
          'inline-flex items-center gap-1.5 rounded-full px-2 py-1 text-xs font-medium ring-1 ring-inset sm:px-2.5',
          isLive
            ? 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-400 dark:ring-emerald-500/20'
            : 'bg-slate-100 text-slate-600 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600/40',
        )}
      >
        <span className="relative flex size-2">
          {isLive && (
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />
          )}
          <span
            className={cn(
              'relative inline-flex size-2 rounded-full',
              isLive ? 'bg-emerald-500' : 'bg-slate-400',
            )}
          />
        </span>
        <span className="sr-only sm:not-sr-only">{isLive ? 'Live Updates' : 'Disconnected'}</span>
      </span>
      {hasGivenUp && (
        <button
          type="button"
          onClick={reconnect}
          className="inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:text-indigo-300 dark:hover:bg-indigo-500/10"
        >
          <RefreshCw className="size-3.5" aria-hidden />
          Reconnect
        </button>
      )}
    </span>
  );
}
