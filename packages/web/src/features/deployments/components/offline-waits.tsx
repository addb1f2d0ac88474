import { useState } from 'react';
import type { ReactNode } from 'react';
import { Ban, XCircle } from 'lucide-react';
import type { DeploymentJobDetail, DeviceDeployment } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { useEndWaitingDevices } from '../api/end-waiting-devices';

// docs/architecture.md, "Devices a job waits for": a running job says which devices it waits for
// (offline since, resumes when it reconnects, expires), marks a step whose timeout passed while
// the agent was away, and lets an administrator fail or cancel those devices now.

type Action = 'fail' | 'cancel';
type Target = { action: Action; device: DeviceDeployment | null };

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const nameOf = (d: DeviceDeployment) => d.hostname ?? `Device ${d.agent_id ?? d.id}`;

/** The device rows the job waits for (live updates may have ended some since the last fetch). */
export const waitingDevices = (job: DeploymentJobDetail) =>
  job.deployments.filter((d) => d.offline_wait && isJobActive(d.status));

function When({ at, children }: { at: string | null; children: ReactNode }) {
  return at ? (
    <time dateTime={at} title={formatDateTime(at)} className="font-medium">
      {children}
    </time>
  ) : (
    <span>an unknown time</span>
  );
}

/** Asks before ending one waiting device (or all of them), and ends it. */
function useEndWaiting(jobId: number, onDone?: () => void) {
  const [target, setTarget] = useState<Target | null>(null);
  const [error, setError] = useState<string | null>(null);
  const end = useEndWaitingDevices(jobId);
  const close = () => {
    setTarget(null);
    setError(null);
  };
  const confirm = () => {
    if (!target) {
      return;
    }
    end.mutate(
      { action: target.action, ...(target.device && { device_deployment_ids: [target.device.id] }) },
      {
        onSuccess: () => {
          close();
          onDone?.();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to end the waiting devices')),
      },
    );
  };
  const verb = target?.action === 'fail' ? 'Fail' : 'Cancel';
  const who = target?.device ? nameOf(target.device) : 'every device this job waits for';
  const dialog = (
    <ConfirmDialog
      isOpen={target !== null}
      title={target?.device ? `${verb} ${who} now?` : `${verb} all waiting devices now?`}
      message={
        <>
          <p>
            The deployment stops waiting for <strong className="text-slate-900 dark:text-white">{who}</strong>
            : {target?.device ? 'its part is' : 'their parts are'} marked{' '}
            {target?.action === 'fail' ? 'failed' : 'cancelled'} now, and a device that comes back is told to
            stop. Steps that already ran are not undone.
          </p>
          {error && <Alert className="mt-3">{error}</Alert>}
        </>
      }
      confirmLabel={target?.device ? `${verb} Device` : `${verb} All Waiting`}
      isBusy={end.isPending}
      onConfirm={confirm}
      onCancel={close}
    />
  );
  return { ask: (action: Action, device: DeviceDeployment | null) => setTarget({ action, device }), dialog };
}

/** Under a device's status: why it is still running, and the administrator's way out. */
export function OfflineWaitNote({ jobId, deployment }: { jobId: number; deployment: DeviceDeployment }) {
  const isAdmin = useUser().role === 'tenant_admin';
  const { ask, dialog } = useEndWaiting(jobId);
  const wait = deployment.offline_wait;
  if (!wait || !isJobActive(deployment.status)) {
    return null;
  }
  const name = nameOf(deployment);
  return (
    <div className="max-w-72 min-w-52 text-xs text-amber-800 dark:text-amber-300" data-testid="offline-wait">
      <p>
        Offline since <When at={wait.offline_since}>{formatDateTime(wait.offline_since)}</When> (
        {lower(relativeTime(wait.offline_since))}), will{' '}
        {deployment.status === 'running' ? 'resume' : 'start'} when it reconnects (expires{' '}
        <When at={wait.expires_at}>{relativeTime(wait.expires_at)}</When>)
      </p>
      {wait.step_timeout_passed_at && (
        <p className="mt-1 flex flex-wrap items-center gap-1.5">
          <Badge tone="red">Timed out while offline</Badge>
          <span>
            timeout passed{' '}
            <When at={wait.step_timeout_passed_at}>{lower(relativeTime(wait.step_timeout_passed_at))}</When>,
            waiting for the agent
          </span>
        </p>
      )}
      {isAdmin && (
        <div className="mt-1.5 flex gap-1.5">
          <Button size="sm" aria-label={`Fail ${name} now`} onClick={() => ask('fail', deployment)}>
            Fail now
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Cancel ${name} now`}
            onClick={() => ask('cancel', deployment)}
          >
            Cancel now
          </Button>
        </div>
      )}
      {dialog}
    </div>
  );
}

/** The job's summary of the devices it waits for, with the actions for all of them. */
export function WaitingDevicesSummary({
  job,
  onChanged,
}: {
  job: DeploymentJobDetail;
  onChanged: () => void;
}) {
  const isAdmin = useUser().role === 'tenant_admin';
  const { ask, dialog } = useEndWaiting(job.id, onChanged);
  const waiting = waitingDevices(job);
  if (!isJobActive(job.status) || waiting.length === 0) {
    return null;
  }
  const firstExpiry = waiting
    .map((d) => d.offline_wait?.expires_at)
    .filter((t): t is string => Boolean(t))
    .sort()[0];
  const timedOut = waiting.filter((d) => d.offline_wait?.step_timeout_passed_at).length;
  return (
    <Alert tone="warning" className="mb-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="waiting-summary">
        <p className="min-w-0 flex-1 basis-72">
          <strong>
            {waiting.length} waiting for offline device{waiting.length === 1 ? '' : 's'}
          </strong>
          . {waiting.length === 1 ? 'It resumes when it reconnects' : 'They resume when they reconnect'}
          {firstExpiry && (
            <>
              {' '}
              or {waiting.length === 1 ? 'fails' : 'fail'} when the wait expires (
              {waiting.length === 1 ? '' : 'the first '}
              <When at={firstExpiry}>{relativeTime(firstExpiry)}</When>)
            </>
          )}
          .{timedOut > 0 && ` ${timedOut} timed out while offline.`}
          {!isAdmin && ' An administrator can fail or cancel them now.'}
        </p>
        {isAdmin && (
          <span className="flex gap-2">
            <Button
              size="sm"
              variant="danger"
              icon={<XCircle className="size-3.5" />}
              onClick={() => ask('fail', null)}
            >
              Fail all waiting
            </Button>
            <Button size="sm" icon={<Ban className="size-3.5" />} onClick={() => ask('cancel', null)}>
              Cancel all waiting
            </Button>
          </span>
        )}
      </div>
      {dialog}
    </Alert>
  );
}
