import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, FileText, RefreshCw, Rocket, X, XCircle } from 'lucide-react';
import type { DeploymentJobDetail, DeviceDeployment, JobStatus } from '@outpost/contract/deployments';
import { isJobActive, jobProgress } from '@outpost/contract/deployments';
import { deploymentKey, deviceKey } from '@outpost/contract/live';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { STEP_CATALOG } from '@outpost/contract/step-catalog';
import { Alert } from '../../../components/ui/alert';
import { Badge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { deploymentDetailKey, useDeployment } from '../../../lib/api/deployments';
import { useUser } from '../../../lib/auth';
import { cn } from '../../../lib/cn';
import { noteJobs } from '../../../lib/deployment-status';
import { formatDateTime } from '../../../lib/format';
import { useLiveMessages, useSubscriptions } from '../../../lib/socket';
import { CancelDeploymentDialog } from '../components/cancel-deployment-dialog';
import { ConnectionIndicator } from '../components/connection-indicator';
import { JobProgress } from '../components/job-progress';
import { JobTimeline } from '../components/job-timeline';
import { OfflineWaitNote, WaitingDevicesSummary } from '../components/offline-waits';
import { StepLogDialog } from '../components/step-log-dialog';
import { formatJobDuration } from '../lib/durations';
import { currentStepOf } from '../lib/device-step';
import { applyDetailUpdate, applyStepToDevice } from '../lib/live-jobs';
import { useTicker } from '../lib/use-ticker';

// spec: operations §2.5 Deployment details, §4 (cancel with confirmation while pending or running,
// live subscriptions), §8 (errors), §9 (progress rounded, pending count, whole minutes).

/** After live changes, the details are fetched again once things settle, to take the server's word. */
const RECONCILE_AFTER_MS = 1500;

export default function DeploymentDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const query = useDeployment(id);
  const isNotFound =
    !Number.isInteger(id) || id <= 0 || (query.error instanceof ApiError && query.error.status === 404);

  useEffect(() => {
    document.title = `${query.data?.name ?? 'Deployment'} · Outpost`;
  }, [query.data?.name]);

  if (isNotFound) {
    return (
      <>
        <BackLink />
        <Card>
          <EmptyState
            icon={<Rocket className="size-6" />}
            title={messages.notFound}
            message="It may have been removed, or it belongs to another organization."
            action={
              <Link
                to="/deployments"
                className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
              >
                Back to deployments
              </Link>
            }
          />
        </Card>
      </>
    );
  }
  if (query.isPending) {
    return <PageSpinner label="Loading deployment..." />;
  }
  if (query.isError) {
    return (
      <>
        <BackLink />
        <Card>
          <ErrorState
            title={messages.detailLoad}
            message={errorMessage(query.error, messages.detailLoad)}
            onRetry={() => void query.refetch()}
          />
        </Card>
      </>
    );
  }
  return <Details job={query.data} isFetching={query.isFetching} onRefresh={() => void query.refetch()} />;
}

function BackLink() {
  return (
    <Link
      to="/deployments"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Back to deployments
    </Link>
  );
}

function useLiveDetail(job: DeploymentJobDetail, refetch: () => void) {
  const user = useUser();
  const queryClient = useQueryClient();
  const key = deploymentDetailKey(user.tenant_id, job.id);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // spec: operations §4 — 'deployment:{id}' and 'device:{guid}' for pending or running items.
  const keys = [
    ...(isJobActive(job.status) ? [deploymentKey(job.id)] : []),
    ...job.deployments
      .filter((d) => isJobActive(d.status) && d.device_guid)
      .map((d) => deviceKey(d.device_guid!)),
  ];
  useSubscriptions(keys);

  useLiveMessages((event) => {
    const update = (fn: (old: DeploymentJobDetail) => DeploymentJobDetail) =>
      queryClient.setQueryData(key, (old: DeploymentJobDetail | undefined) => (old ? fn(old) : old));
    switch (event.type) {
      case 'deployment_update': {
        if (event.payload.deploymentId !== job.id) {
          return;
        }
        update((old) => applyDetailUpdate(old, event.payload));
        // Statuses and counters are shown at once; the server's full picture follows.
        clearTimeout(timer.current);
        timer.current = setTimeout(refetch, RECONCILE_AFTER_MS);
        return;
      }
      case 'step_update':
        if (event.payload.deploymentId === job.id) {
          update((old) => applyStepToDevice(old, event.payload));
        }
        return;
      case 'device_update': {
        const u = event.payload;
        update((old) => ({
          ...old,
          deployments: old.deployments.map((d) =>
            d.device_guid !== u.deviceId
              ? d
              : { ...d, hostname: u.hostname ?? d.hostname, ip_address: u.ipAddress ?? d.ip_address },
          ),
        }));
        // a device went offline or came back: the server says what the job waits for now
        const row = job.deployments.find((d) => d.device_guid === u.deviceId);
        if (row && (u.status === 'offline') !== Boolean(row.offline_wait)) {
          clearTimeout(timer.current);
          timer.current = setTimeout(refetch, RECONCILE_AFTER_MS);
        }
        return;
      }
      case 'connection_status':
        return;
    }
  });
}

function Details({
  job,
  isFetching,
  onRefresh,
}: {
  job: DeploymentJobDetail;
  isFetching: boolean;
  onRefresh: () => void;
}) {
  const [toCancel, setToCancel] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [logsFor, setLogsFor] = useState<number | null>(null);
  useLiveDetail(job, onRefresh);
  useTicker();
  useEffect(() => {
    noteJobs([job]);
  }, [job]);

  const canCancel = isJobActive(job.status);
  const { percent, pending, cancelled } = jobProgress(job);
  const logsDevice = job.deployments.find((d) => d.id === logsFor) ?? null;
  // Stable, so live re-renders do not make the dialogs move focus.
  const closeLogs = useCallback(() => setLogsFor(null), []);
  const closeCancel = useCallback(() => setToCancel(false), []);

  return (
    <>
      <BackLink />
      <PageHeader
        title={job.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={job.status} />
            <span>
              #{job.id} · {job.package_name}
            </span>
          </span>
        }
        actions={
          <>
            <ConnectionIndicator />
            <Button
              onClick={onRefresh}
              icon={<RefreshCw className={isFetching ? 'size-4 animate-spin' : 'size-4'} />}
            >
              Refresh
            </Button>
            {canCancel && (
              <Button
                variant="danger"
                icon={<XCircle className="size-4" />}
                onClick={() => {
                  setCancelError(null);
                  setToCancel(true);
                }}
              >
                Cancel Deployment
              </Button>
            )}
          </>
        }
      />
      {cancelError && (
        <div className="mb-4 flex items-start gap-2">
          <Alert className="flex-1">{cancelError}</Alert>
          <Button variant="ghost" size="sm" aria-label="Dismiss" onClick={() => setCancelError(null)}>
            <X className="size-4" />
          </Button>
        </div>
      )}

      <WaitingDevicesSummary job={job} onChanged={onRefresh} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="xl:col-span-2">
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
        </div>
        <div>
          <Card className="h-full">
            <CardHeader title="Timeline" />
            <JobTimeline job={job} />
          </Card>
        </div>
        <div className="xl:col-span-3">
          <Card>
            <CardHeader
              title="Devices"
              description={`${job.deployments.length} device${job.deployments.length === 1 ? '' : 's'} in this deployment`}
            />
            <DeviceTable jobId={job.id} deployments={job.deployments} onLogs={setLogsFor} />
          </Card>
        </div>
        <div className="xl:col-span-2">
          <Card className="h-full">
            <CardHeader title="Job Details" />
            <dl className="grid grid-cols-1 gap-x-8 px-5 py-2 text-sm sm:grid-cols-2">
              <Detail label="Package">{job.package_name}</Detail>
              <Detail label="Created by">{job.created_by_name ?? 'Unknown'}</Detail>
              <Detail label="Created">{formatDateTime(job.created_at)}</Detail>
              <Detail label="Scheduled">
                {job.scheduled_at ? formatDateTime(job.scheduled_at) : 'Immediately'}
              </Detail>
              <Detail label="Started">{formatDateTime(job.started_at)}</Detail>
              <Detail label="Completed">{formatDateTime(job.completed_at)}</Detail>
              <Detail label="Description">
                {job.description ? (
                  <span className="whitespace-pre-wrap">{job.description}</span>
                ) : (
                  <span className="text-slate-500 dark:text-slate-400">None</span>
                )}
              </Detail>
            </dl>
          </Card>
        </div>
        <div>
          {job.steps.length > 0 && (
            <Card className="h-full">
              <CardHeader title="Steps" description="As the package was when the job was created" />
              <ol className="divide-y divide-slate-100 px-5 text-sm dark:divide-slate-800">
                {job.steps.map((s) => (
                  <li key={s.step_order} className="flex items-center gap-3 py-2.5">
                    <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                      {s.step_order}
                    </span>
                    <span className="min-w-0 flex-1 truncate text-slate-800 dark:text-slate-100">
                      {s.step_name}
                    </span>
                    <Badge tone="indigo">{STEP_CATALOG[s.step_type].label}</Badge>
                  </li>
                ))}
              </ol>
            </Card>
          )}
        </div>
      </div>

      <CancelDeploymentDialog
        job={toCancel ? job : null}
        onClose={closeCancel}
        onCancelled={onRefresh}
        onError={setCancelError}
      />
      <StepLogDialog
        key={logsFor ?? 'closed'}
        jobId={job.id}
        deviceDeployment={logsDevice}
        steps={job.steps}
        onClose={closeLogs}
      />
    </>
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

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-4 border-b border-slate-100 py-2.5 dark:border-slate-800">
      <dt className="w-24 shrink-0 text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 flex-1 break-words text-slate-800 dark:text-slate-100">{children}</dd>
    </div>
  );
}

function DeviceTable({
  jobId,
  deployments,
  onLogs,
}: {
  jobId: number;
  deployments: DeviceDeployment[];
  onLogs: (id: number) => void;
}) {
  if (deployments.length === 0) {
    return <EmptyState title="No devices" message="This job has no device deployments." />;
  }
  return (
    <Table cards>
      <THead>
        <tr>
          <Th sticky>Device</Th>
          <Th>Status</Th>
          <Th>Current Step</Th>
          <Th>Started</Th>
          <Th>Duration</Th>
          <Th>Error</Th>
          <Th className="text-right">Logs</Th>
        </tr>
      </THead>
      <TBody>
        {deployments.map((d) => {
          const name = d.hostname ?? `Device ${d.agent_id ?? d.id}`;
          const step = currentStepOf(d);
          return (
            <Tr key={d.id} data-testid="device-deployment-row" data-device-deployment-id={d.id}>
              <Td sticky>
                {d.device_guid ? (
                  <Link
                    to={`/devices/${d.device_guid}`}
                    className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
                  >
                    {name}
                  </Link>
                ) : (
                  <span className="font-medium whitespace-nowrap text-slate-900 dark:text-white">{name}</span>
                )}
                <div className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                  {d.ip_address ?? 'No IP'}
                </div>
              </Td>
              <Td>
                <div className="flex flex-col items-start gap-1">
                  <StatusBadge status={d.status} />
                  {d.reboot_required && <Badge tone="yellow">Reboot required</Badge>}
                  <OfflineWaitNote jobId={jobId} deployment={d} />
                </div>
              </Td>
              <Td className="max-w-48 min-w-36" data-label="Current Step">
                {step ? (
                  <span className="line-clamp-2">
                    <span className="text-slate-500 tabular-nums dark:text-slate-400">{step.order}.</span>{' '}
                    {step.name}
                  </span>
                ) : (
                  <span className="text-slate-500 dark:text-slate-400">—</span>
                )}
              </Td>
              <Td data-label="Started">{formatDateTime(d.started_at)}</Td>
              <Td className="whitespace-nowrap tabular-nums" data-label="Duration">
                {formatJobDuration(d.started_at, d.completed_at)}
              </Td>
              <Td className="max-w-64" data-label="Error">
                {d.error_message ? (
                  <span className="line-clamp-2 text-red-600 dark:text-red-400" title={d.error_message}>
                    {d.error_message}
                  </span>
                ) : (
                  <span className="text-slate-500 dark:text-slate-400">—</span>
                )}
              </Td>
              <Td className="text-right" data-label="Actions">
                <Button
                  size="sm"
                  icon={<FileText className="size-3.5" />}
                  aria-label={`Step logs for ${name}`}
                  onClick={() => onLogs(d.id)}
                >
                  Logs
                </Button>
              </Td>
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}
