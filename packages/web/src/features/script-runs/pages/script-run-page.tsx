import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Play, RefreshCw, Terminal, XCircle } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { isJobActive } from '@outpost/contract/deployments';
import { deploymentKey } from '@outpost/contract/live';
import type { ScriptRunDetail } from '@outpost/contract/script-runs';
import { SCRIPT_LANGUAGE_LABELS } from '@outpost/contract/scripts';
import { DismissibleAlert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { PageSpinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { useLiveMessages, useSubscriptions } from '../../../lib/socket';
import { scriptRunKey, useCancelScriptRun, useScriptRun } from '../api/script-runs';
import { RunCounters } from '../components/run-counters';
import { RunDeviceTable } from '../components/run-device-table';
import { RunOutput } from '../components/run-output';
import { ScriptsTabs } from '../components/scripts-tabs';
import { applyStepToRun } from '../lib/live-run';

// docs/product/scripts.md#results — one run: counters filling in live, the devices with status,
// exit code and duration, the chosen device's output streaming; cancel while it runs; run again.

/** After a device or the run ends, the server's picture is fetched again once things settle. */
const RECONCILE_AFTER_MS = 800;

export default function ScriptRunPage() {
  const id = Number(useParams().id);
  const query = useScriptRun(id);
  const isNotFound =
    !Number.isInteger(id) || id <= 0 || (query.error instanceof ApiError && query.error.status === 404);

  useEffect(() => {
    document.title = `${query.data ? `${query.data.script_name} run` : 'Script run'} · Outpost`;
  }, [query.data]);

  if (isNotFound) {
    return (
      <>
        <BackLink />
        <Card>
          <EmptyState
            icon={<Terminal className="size-6" />}
            title="Script run not found"
            message="It may have been removed, or it belongs to another organization."
          />
        </Card>
      </>
    );
  }
  if (query.isPending) {
    return <PageSpinner label="Loading script run..." />;
  }
  if (query.isError) {
    return (
      <>
        <BackLink />
        <Card>
          <ErrorState
            title="Failed to load the script run"
            message={errorMessage(query.error, 'Failed to load the script run')}
            onRetry={() => void query.refetch()}
          />
        </Card>
      </>
    );
  }
  return <Results run={query.data} isFetching={query.isFetching} onRefresh={() => void query.refetch()} />;
}

function BackLink() {
  return (
    <Link
      to="/scripts/runs"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Back to runs
    </Link>
  );
}

/** Keeps the cached run live through the portal socket's `deployment:{id}` key. */
function useLiveRun(run: ScriptRunDetail, refetch: () => void) {
  const user = useUser();
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useSubscriptions(isJobActive(run.status) ? [deploymentKey(run.id)] : []);
  useLiveMessages((event) => {
    const later = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(refetch, RECONCILE_AFTER_MS);
    };
    if (event.type === 'step_update' && event.payload.deploymentId === run.id) {
      client.setQueryData(scriptRunKey(user.tenant_id, run.id), (old: ScriptRunDetail | undefined) =>
        old ? applyStepToRun(old, event.payload) : old,
      );
      if (event.payload.status !== 'running') {
        later();
      }
    } else if (event.type === 'deployment_update' && event.payload.deploymentId === run.id) {
      later();
    }
  });
}

function Results({
  run,
  isFetching,
  onRefresh,
}: {
  run: ScriptRunDetail;
  isFetching: boolean;
  onRefresh: () => void;
}) {
  const [chosen, setChosen] = useState<number | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const cancel = useCancelScriptRun();
  useLiveRun(run, onRefresh);
  const closeConfirm = useCallback(() => setIsConfirming(false), []);

  const row = run.rows.find((r) => r.id === chosen) ?? run.rows[0] ?? null;
  const canCancel = isJobActive(run.status);

  return (
    <>
      <BackLink />
      <PageHeader
        title={`${run.script_name} · v${run.version}`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={run.status} />
            <span>
              #{run.id} · {SCRIPT_LANGUAGE_LABELS[run.language]} · started {formatDateTime(run.created_at)}
              {run.created_by_name ? ` by ${run.created_by_name}` : ''}
            </span>
          </span>
        }
        actions={
          <>
            <Button
              onClick={onRefresh}
              icon={<RefreshCw className={isFetching ? 'size-4 animate-spin' : 'size-4'} />}
            >
              Refresh
            </Button>
            {run.script_id !== null && run.script_id > 0 && (
              <Link
                to={`/scripts/${run.script_id}?run=1`}
                className="inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                <Play className="size-4" aria-hidden />
                Run again
              </Link>
            )}
            {canCancel && (
              <Button
                variant="danger"
                icon={<XCircle className="size-4" />}
                onClick={() => {
                  setCancelError(null);
                  setIsConfirming(true);
                }}
              >
                Cancel Run
              </Button>
            )}
          </>
        }
      />
      <ScriptsTabs />
      <DismissibleAlert message={cancelError} onDismiss={() => setCancelError(null)} />
      <RunCounters counts={run.devices} />
      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-5">
        <Card className="xl:col-span-2">
          <CardHeader
            title="Devices"
            description={`${run.rows.length} device${run.rows.length === 1 ? '' : 's'} in this run`}
          />
          <RunDeviceTable rows={run.rows} chosen={row?.id ?? null} onChoose={setChosen} />
        </Card>
        <Card className="xl:col-span-3">
          <CardHeader
            title={row ? `Output · ${row.hostname ?? 'Removed device'}` : 'Output'}
            description={
              row?.error_message ??
              (row ? 'stdout and stderr in the order printed; stderr is tinted.' : undefined)
            }
          />
          <div className="p-4">
            {row ? (
              <RunOutput output={row.output} label={`Output of ${row.hostname ?? 'the device'}`} />
            ) : (
              <p className="text-sm text-slate-500">No devices.</p>
            )}
          </div>
        </Card>
      </div>
      <ConfirmDialog
        isOpen={isConfirming}
        title="Cancel script run?"
        message={
          <p>
            Devices that have not started are skipped and running scripts are stopped with every process they
            started. What a script already did is not undone.
          </p>
        }
        confirmLabel="Cancel Run"
        isBusy={cancel.isPending}
        onConfirm={() =>
          cancel.mutate(run.id, {
            onSuccess: () => {
              closeConfirm();
              onRefresh();
            },
            onError: (err) => {
              closeConfirm();
              setCancelError(errorMessage(err, 'Failed to cancel the run'));
            },
          })
        }
        onCancel={closeConfirm}
      />
    </>
  );
}
