import type { ReactNode } from 'react';
import { AlertCircle, Construction, Inbox, RefreshCw } from 'lucide-react';
import { QUERY_RETRY_COUNT } from '@outpost/contract/limits';
import { messages } from '@outpost/contract/messages';
import { Button } from './button';
import { Card } from './card';
import { Spinner } from './spinner';

export function EmptyState({
  icon,
  title,
  message,
  action,
}: {
  icon?: ReactNode;
  title: string;
  message?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center px-6 py-14 text-center">
      <div className="mb-3 flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500">
        {icon ?? <Inbox className="size-6" />}
      </div>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
      {message && <p className="mt-1 max-w-sm text-sm text-slate-500 dark:text-slate-400">{message}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/** A load failure: the product's box title, the message, and Try Again. */
export function ErrorState({
  title,
  message,
  onRetry,
  extraAction,
}: {
  title: string;
  message?: string;
  onRetry?: () => void;
  /** a second way out beside Try Again */
  extraAction?: ReactNode;
}) {
  return (
    <div role="alert" className="flex flex-col items-center justify-center px-6 py-14 text-center">
      <div className="mb-3 flex size-12 items-center justify-center rounded-full bg-red-50 text-red-500 dark:bg-red-500/10">
        <AlertCircle className="size-6" />
      </div>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
      {message && <p className="mt-1 max-w-md text-sm text-slate-500 dark:text-slate-400">{message}</p>}
      {(onRetry || extraAction) && (
        <div className="mt-4 flex flex-wrap items-center justify-center gap-2">
          {onRetry && (
            <Button onClick={onRetry} icon={<RefreshCw className="size-4" />}>
              Try Again
            </Button>
          )}
          {extraAction}
        </div>
      )}
    </div>
  );
}

/** An honest placeholder for a screen whose capability lands in a later release. */
export function ComingSoon({ feature, details }: { feature: string; details?: ReactNode }) {
  return (
    <Card>
      <div className="flex flex-col items-center px-6 py-16 text-center">
        <div className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400">
          <Construction className="size-7" />
        </div>
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">
          {feature} is coming in a later release
        </h2>
        <p className="mt-2 max-w-md text-sm text-slate-500 dark:text-slate-400">
          {details ??
            'This part of Outpost is being built. Nothing here is simulated: it will appear once it works against your real devices.'}
        </p>
      </div>
    </Card>
  );
}

/** A query's failures so far while it is still pending (TanStack's failureCount and failureReason). */
export type QueryFailures = { failureCount: number; failureReason: unknown };

/**
 * A load that failed and is being tried again (docs/architecture.md#web-app, three retries with growing delays):
 * said plainly, with the last failure, rather than a spinner that turns for many seconds.
 */
export function RetryingState({ failures }: { failures: QueryFailures }) {
  const reason = failures.failureReason instanceof Error ? failures.failureReason.message : null;
  return (
    <div role="status" className="flex flex-col items-center justify-center gap-2 px-6 py-14 text-center">
      <Spinner className="size-6 text-amber-600 dark:text-amber-400" label={messages.queryRetrying} />
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{messages.queryRetrying}</h3>
      <p className="max-w-md text-sm text-slate-500 dark:text-slate-400">
        {messages.queryRetryDetail(Math.min(failures.failureCount, QUERY_RETRY_COUNT), QUERY_RETRY_COUNT)}
        {reason && <span className="block">{reason}</span>}
      </p>
    </div>
  );
}

/**
 * The body of a list or panel that loads: a spinner while pending ("Retrying…" once a load has
 * failed and is tried again), the error with Try Again,
 * the empty state when there is nothing, else the content. One component, so every screen
 * shows these three moments the same way.
 */
export function QueryState({
  isPending,
  failures,
  error,
  errorTitle,
  onRetry,
  isEmpty,
  empty,
  loadingLabel = 'Loading',
  children,
}: {
  isPending: boolean;
  /** the query itself, or its failure count and reason: shows "Retrying…" between retries */
  failures?: QueryFailures;
  /** the failure's message, or null when the load did not fail */
  error: string | null;
  errorTitle: string;
  onRetry?: () => void;
  isEmpty: boolean;
  empty: { icon?: ReactNode; title: string; message?: ReactNode; action?: ReactNode };
  loadingLabel?: string;
  children: ReactNode;
}) {
  if (isPending && failures && failures.failureCount > 0) {
    return <RetryingState failures={failures} />;
  }
  if (isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6 text-indigo-600 dark:text-indigo-400" label={loadingLabel} />
      </div>
    );
  }
  if (error !== null) {
    return <ErrorState title={errorTitle} message={error} onRetry={onRetry} />;
  }
  if (isEmpty) {
    return <EmptyState {...empty} />;
  }
  return <>{children}</>;
}
