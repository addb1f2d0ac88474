import { Link } from 'react-router';
import { FileText } from 'lucide-react';
import type { DeviceDeployment } from '@outpost/contract/deployments';
import type { Rollout } from '@outpost/contract/rollouts';
import { Badge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { DataTable } from '../../../components/ui/data-table';
import { EmptyState } from '../../../components/ui/states';
import { formatDateTime } from '../../../lib/format';
import { currentStepOf } from '../lib/device-step';
import { formatJobDuration } from '../lib/durations';
import { DeviceHoldBadge } from './device-hold';
import { OfflineWaitNote } from './offline-waits';

const deviceLabel = (d: DeviceDeployment) => d.hostname ?? `Device ${d.agent_id ?? d.id}`;

const dash = <span className="text-slate-500 dark:text-slate-400">—</span>;

/** The wave column of a rollout (docs/product/rollouts.md#waves): the wave's name, else its number. */
function waveColumn(rollout: Rollout): Column<DeviceDeployment> {
  return {
    id: 'wave',
    header: 'Wave',
    label: 'Wave',
    className: 'whitespace-nowrap',
    cell: (d) =>
      d.wave_index == null
        ? dash
        : (rollout.waves.find((w) => w.index === d.wave_index)?.name ?? `Wave ${d.wave_index + 1}`),
  };
}

function deviceDeploymentColumns(
  jobId: number,
  onLogs: (id: number) => void,
  rollout: Rollout | null,
): Column<DeviceDeployment>[] {
  return [
    {
      id: 'device',
      header: 'Device',
      sticky: true,
      cell: (d) => (
        <>
          {d.device_guid ? (
            <Link
              to={`/devices/${d.device_guid}`}
              className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
            >
              {deviceLabel(d)}
            </Link>
          ) : (
            <span className="font-medium whitespace-nowrap text-slate-900 dark:text-white">
              {deviceLabel(d)}
            </span>
          )}
          <div className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{d.ip_address ?? 'No IP'}</div>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => (
        <div className="flex flex-col items-start gap-1">
          <StatusBadge status={d.status} />
          {d.reboot_required && <Badge tone="yellow">Reboot required</Badge>}
          <OfflineWaitNote jobId={jobId} deployment={d} />
          <DeviceHoldBadge deployment={d} />
        </div>
      ),
    },
    ...(rollout ? [waveColumn(rollout)] : []),
    {
      id: 'step',
      header: 'Current Step',
      label: 'Current Step',
      className: 'max-w-48 min-w-36',
      cell: (d) => {
        const step = currentStepOf(d);
        return step ? (
          <span className="line-clamp-2">
            <span className="text-slate-500 tabular-nums dark:text-slate-400">{step.order}.</span> {step.name}
          </span>
        ) : (
          dash
        );
      },
    },
    { id: 'started', header: 'Started', label: 'Started', cell: (d) => formatDateTime(d.started_at) },
    {
      id: 'duration',
      header: 'Duration',
      label: 'Duration',
      className: 'whitespace-nowrap tabular-nums',
      cell: (d) => formatJobDuration(d.started_at, d.completed_at),
    },
    {
      id: 'error',
      header: 'Error',
      label: 'Error',
      className: 'max-w-64',
      cell: (d) =>
        d.error_message ? (
          <span className="line-clamp-2 text-red-600 dark:text-red-400" title={d.error_message}>
            {d.error_message}
          </span>
        ) : (
          dash
        ),
    },
    {
      id: 'logs',
      header: 'Logs',
      headerClassName: 'text-right',
      label: 'Actions',
      className: 'text-right',
      cell: (d) => (
        <Button
          size="sm"
          icon={<FileText className="size-3.5" />}
          aria-label={`Step logs for ${deviceLabel(d)}`}
          onClick={() => onLogs(d.id)}
        >
          Logs
        </Button>
      ),
    },
  ];
}

/** Each device of a deployment: its status, current step, times, error and step logs. */
export function DeviceDeploymentTable({
  jobId,
  deployments,
  onLogs,
  rollout = null,
}: {
  jobId: number;
  deployments: DeviceDeployment[];
  onLogs: (id: number) => void;
  /** the job's rollout: a wave column is shown */
  rollout?: Rollout | null;
}) {
  if (deployments.length === 0) {
    return <EmptyState title="No devices" message="This job has no device deployments." />;
  }
  return (
    <DataTable
      cards
      rows={deployments}
      columns={deviceDeploymentColumns(jobId, onLogs, rollout)}
      rowAttributes={(d) => ({ 'data-testid': 'device-deployment-row', 'data-device-deployment-id': d.id })}
    />
  );
}
