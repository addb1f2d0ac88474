import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { AlertTriangle, PauseCircle, RotateCcw } from 'lucide-react';
import type {
  DeploymentStepSummary,
  DeviceDeployment,
  JobStatus,
  StepLog,
} from '@outpost/contract/deployments';
import { deploymentKey } from '@outpost/contract/live';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { STEP_CATALOG } from '@outpost/contract/step-catalog';
import { SCRIPT_STEP_TYPE } from '@outpost/contract/script-runs';
import { DEVICE_HOLD_LABELS } from '@outpost/contract/rollouts';
import { Badge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/states';
import { useStepLogs } from '../api/get-step-logs';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useLiveMessages, useSubscriptions } from '../../../lib/socket';
import { formatStepDuration } from '../lib/durations';
import { applyStepUpdate, mergeFetchedLogs } from '../lib/live-logs';
import { StepNote } from './step-note';

// docs/product/deployments.md#details step-log dialog, #fields Step log (one row per attempt), docs/product/packages.md#saving 'Failed to load
// step logs', docs/product/deployments.md#job-statuses step durations in seconds with one decimal. While a step runs the dialog follows
// the step_update messages (output appended) and fetches the logs again when a step finishes.

const REFETCH_AFTER_STEP_MS = 400;

export function StepLogDialog({
  jobId,
  deviceDeployment,
  steps,
  onClose,
}: {
  jobId: number;
  deviceDeployment: DeviceDeployment | null;
  steps: readonly DeploymentStepSummary[];
  onClose: () => void;
}) {
  const id = deviceDeployment?.id ?? null;
  const query = useStepLogs(id);
  // What live updates have shown beyond the last fetch; the dialog shows the two merged.
  const [live, setLive] = useState<StepLog[]>([]);
  const fetched = useMemo(() => query.data?.pages.flatMap((p) => p.logs), [query.data]);
  const firstPage = query.data?.pages[0];
  const total = query.data?.pages.at(-1)?.pagination.total ?? 0;
  const logs = useMemo(() => mergeFetchedLogs(fetched ?? [], live), [fetched, live]);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useSubscriptions(id !== null ? [deploymentKey(jobId)] : []);

  useEffect(() => () => clearTimeout(refetchTimer.current), []);

  useLiveMessages((event) => {
    if (event.type !== 'step_update' || id === null || event.payload.deviceDeploymentId !== id) {
      return;
    }
    const update = event.payload;
    setLive((shown) => applyStepUpdate(mergeFetchedLogs(fetched ?? [], shown), update));
    if (update.status !== 'running' && update.status !== 'pending') {
      clearTimeout(refetchTimer.current);
      refetchTimer.current = setTimeout(() => void query.refetch(), REFETCH_AFTER_STEP_MS);
    }
  });

  const dd = firstPage?.device_deployment ?? deviceDeployment;
  const status: JobStatus | undefined = deviceDeployment?.status ?? dd?.status;
  const stepOrders = [...new Set([...steps.map((s) => s.step_order), ...logs.map((l) => l.step_order)])].sort(
    (a, b) => a - b,
  );

  return (
    <Dialog
      isOpen={deviceDeployment !== null}
      onClose={onClose}
      size="xl"
      title={
        <span className="flex flex-wrap items-center gap-2">
          Step logs · {dd?.hostname ?? `Device deployment ${id}`}
          {status && <StatusBadge status={status} />}
          {dd?.reboot_required && <Badge tone="yellow">Reboot required</Badge>}
        </span>
      }
      description={
        dd && (
          <>
            {dd.ip_address ?? 'No IP'} · started {formatDateTime(dd.started_at)}
            {dd.completed_at && <> · finished {formatDateTime(dd.completed_at)}</>}
          </>
        )
      }
      footer={
        <>
          {query.isFetching && (
            <Spinner className="mr-auto size-4 text-slate-400" label="Refreshing step logs" />
          )}
          <Button icon={<RotateCcw className="size-4" />} onClick={() => void query.refetch()}>
            Refresh
          </Button>
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {dd?.error_message && (
        <div className="mb-4 flex gap-2 rounded-lg bg-red-50 px-3.5 py-3 text-sm text-red-800 ring-1 ring-red-200 ring-inset dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500/30">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">{dd.error_message}</span>
        </div>
      )}
      {dd?.hold && (
        // docs/product/rollouts.md#device-states — why the device's part waits
        <div
          className="mb-4 flex gap-2 rounded-lg bg-amber-50 px-3.5 py-3 text-sm text-amber-800 ring-1 ring-amber-200 ring-inset dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30"
          data-testid="hold-banner"
        >
          <PauseCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">
            <strong className="font-semibold">{DEVICE_HOLD_LABELS[dd.hold]}</strong>
            {dd.hold_note && <> · {dd.hold_note}</>}
          </span>
        </div>
      )}
      {query.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-6 text-indigo-600 dark:text-indigo-400" label="Loading step logs" />
        </div>
      ) : query.isError ? (
        <ErrorState
          title={messages.stepLogsLoad}
          message={errorMessage(query.error, messages.stepLogsLoad)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ol className="space-y-4" aria-label="Steps">
          {stepOrders.map((order) => (
            <StepSection
              key={order}
              order={order}
              step={steps.find((s) => s.step_order === order)}
              attempts={logs.filter((l) => l.step_order === order)}
              isDeviceFinished={status !== undefined && status !== 'pending' && status !== 'running'}
              isOnLaterPage={query.hasNextPage && order > (fetched?.at(-1)?.step_order ?? 0)}
            />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <div className="mt-4 flex items-center justify-center gap-3 text-sm text-slate-500 dark:text-slate-400">
          <span>{messages.stepLogsMore(fetched?.length ?? 0, total)}</span>
          <Button onClick={() => void query.fetchNextPage()} isLoading={query.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </Dialog>
  );
}

function StepSection({
  order,
  step,
  attempts,
  isDeviceFinished,
  isOnLaterPage,
}: {
  order: number;
  step: DeploymentStepSummary | undefined;
  attempts: StepLog[];
  /** the device's deployment has ended: a step without attempts was never run */
  isDeviceFinished: boolean;
  /** its attempts come after the pages loaded so far */
  isOnLaterPage: boolean;
}) {
  const latest = attempts[attempts.length - 1];
  const name = step?.step_name ?? latest?.step_name ?? `Step ${order}`;
  return (
    <li
      className="overflow-hidden rounded-lg ring-1 ring-slate-200 dark:ring-slate-700/80"
      data-testid="step-log"
      data-step-order={order}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 bg-slate-50/80 px-4 py-2.5 dark:border-slate-700/80 dark:bg-slate-800/50">
        <span className="flex size-6 items-center justify-center rounded-full bg-white text-xs font-semibold text-slate-600 ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-300 dark:ring-slate-700">
          {order}
        </span>
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{name}</h3>
        {step && (
          <Badge tone="indigo">
            {step.step_type === SCRIPT_STEP_TYPE ? 'Script' : STEP_CATALOG[step.step_type].label}
          </Badge>
        )}
        <span className="ml-auto flex items-center gap-2">
          {attempts.length > 1 && (
            <span className="text-xs text-slate-500 dark:text-slate-400">{attempts.length} attempts</span>
          )}
          {latest ? (
            <StatusBadge status={latest.status} />
          ) : isOnLaterPage ? null : isDeviceFinished ? (
            <Badge tone="gray">Not run</Badge>
          ) : (
            <StatusBadge status="pending" />
          )}
        </span>
      </div>
      {attempts.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
          {isOnLaterPage
            ? 'Its attempts are on a later page: Load more.'
            : isDeviceFinished
              ? 'This step did not run on this device.'
              : 'Not started yet.'}
        </p>
      ) : (
        <div className="divide-y divide-slate-100 dark:divide-slate-800">
          {attempts.map((a) => (
            <Attempt key={a.attempt} log={a} />
          ))}
        </div>
      )}
    </li>
  );
}

function Attempt({ log }: { log: StepLog }) {
  return (
    <div className="space-y-2.5 px-4 py-3" data-testid="step-attempt" data-attempt={log.attempt}>
      <dl className="flex flex-wrap items-center gap-x-5 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        <div className="flex items-center gap-1.5">
          <dt className="sr-only">Status</dt>
          <dd>
            <StatusBadge status={log.status} />
          </dd>
        </div>
        <Meta label="Attempt" value={String(log.attempt)} />
        <Meta label="Exit code" value={log.exit_code === null ? '—' : String(log.exit_code)} />
        <Meta label="Duration" value={formatStepDuration(log.duration_ms)} />
        <Meta label="Started" value={formatDateTime(log.started_at)} />
        {log.status === 'running' && (
          <span className="inline-flex items-center gap-1.5 text-sky-600 dark:text-sky-400">
            <Spinner className="size-3.5" label="Running" /> Running…
          </span>
        )}
      </dl>
      <StepNote note={log.note} />
      {log.error_message && <LogBlock label="Error" text={log.error_message} tone="error" />}
      {(log.status !== 'skipped' || log.stdout_log) && (
        <LogBlock label="stdout" text={log.stdout_log} isLive={log.status === 'running'} />
      )}
      {log.stderr_log && (
        <LogBlock label="stderr" text={log.stderr_log} tone="warn" isLive={log.status === 'running'} />
      )}
      {log.output && <LogBlock label="Output" text={log.output} />}
    </div>
  );
}

function Meta({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center gap-1.5">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="font-medium text-slate-700 tabular-nums dark:text-slate-200">{value}</dd>
    </div>
  );
}

/** A scrollable monospace block; while live it follows the end unless the reader scrolled up. */
function LogBlock({
  label,
  text,
  tone,
  isLive,
}: {
  label: string;
  text: string;
  tone?: 'error' | 'warn';
  isLive?: boolean;
}) {
  const ref = useRef<HTMLPreElement>(null);
  const isAtEnd = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && isLive && isAtEnd.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [text, isLive]);
  return (
    <div>
      <div className="mb-1 text-[11px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {label}
      </div>
      <pre
        ref={ref}
        tabIndex={0}
        aria-label={label}
        onScroll={(e) => {
          const el = e.currentTarget;
          isAtEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        className={
          'max-h-60 overflow-auto rounded-md px-3 py-2 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap ' +
          (tone === 'error'
            ? 'bg-red-50 text-red-800 ring-1 ring-red-200 ring-inset dark:bg-red-950/40 dark:text-red-200 dark:ring-red-500/30'
            : tone === 'warn'
              ? 'bg-amber-50 text-amber-900 ring-1 ring-amber-200 ring-inset dark:bg-amber-950/30 dark:text-amber-200 dark:ring-amber-500/30'
              : 'bg-slate-950 text-slate-100 ring-1 ring-slate-800 ring-inset dark:bg-black/60')
        }
      >
        {text || <span className="text-slate-400 italic">No output</span>}
      </pre>
    </div>
  );
}
