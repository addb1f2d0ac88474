import { Pencil, Trash2 } from 'lucide-react';
import { CHECK_TYPE_LABELS, SEVERITY_LABELS } from '@outpost/contract/checks';
import type { Severity } from '@outpost/contract/checks';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { IconButton } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import type { MonitoringPolicy } from '../api/monitoring-policies';
import { minutesText } from '../lib/monitoring-form';
import { EnabledToggle } from './enabled-toggle';
import { TargetLabel } from './policy-columns';

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

export const severityTones: Record<Severity, Tone> = { info: 'blue', warning: 'yellow', critical: 'red' };

export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <Badge tone={severityTones[severity]} dot>
      {SEVERITY_LABELS[severity]}
    </Badge>
  );
}

/** "CPU usage, Disk free space +2": the kinds of checks a policy holds. */
function checkKinds(p: MonitoringPolicy): string {
  const kinds = [...new Set(p.checks.map((c) => CHECK_TYPE_LABELS[c.config.type]))];
  return kinds.length > 2 ? `${kinds.slice(0, 2).join(', ')} +${kinds.length - 2}` : kinds.join(', ');
}

/** The monitoring policies' columns; the toggle, Edit and Delete only where the caller may change it. */
export function monitoringColumns({
  mayManage,
  onToggle,
  onEdit,
  onDelete,
}: {
  mayManage: (p: MonitoringPolicy) => boolean;
  onToggle: (p: MonitoringPolicy, enabled: boolean) => void;
  onEdit: (p: MonitoringPolicy) => void;
  onDelete: (p: MonitoringPolicy) => void;
}): Column<MonitoringPolicy>[] {
  return [
    {
      id: 'name',
      header: 'Policy',
      sticky: true,
      className: 'min-w-48 max-w-72',
      cell: (p) => (
        <>
          {mayManage(p) ? (
            <button
              type="button"
              onClick={() => onEdit(p)}
              className="text-left font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
            >
              {p.name}
            </button>
          ) : (
            <span className="font-medium text-slate-900 dark:text-white">{p.name}</span>
          )}
          {p.description && (
            <p
              className="mt-0.5 max-w-64 truncate text-xs text-slate-500 dark:text-slate-400"
              title={p.description}
            >
              {p.description}
            </p>
          )}
        </>
      ),
    },
    { id: 'target', header: 'Target', label: 'Target', cell: (p) => <TargetLabel target={p.target} /> },
    {
      id: 'checks',
      header: 'Checks',
      label: 'Checks',
      className: 'min-w-44',
      cell: (p) =>
        p.checks.length === 0 ? (
          <span className="text-slate-500 dark:text-slate-400">No checks</span>
        ) : (
          <span>
            <span className="font-medium text-slate-900 tabular-nums dark:text-white">
              {p.checks.length} check{p.checks.length === 1 ? '' : 's'}
            </span>
            <span className="block max-w-56 truncate text-xs text-slate-500 dark:text-slate-400">
              {checkKinds(p)}
            </span>
          </span>
        ),
    },
    {
      id: 'offline',
      header: 'Offline alert',
      label: 'Offline alert',
      cell: (p) =>
        p.offline_alert_minutes === null ? (
          none
        ) : (
          <span className="inline-flex items-center gap-2 whitespace-nowrap">
            After {minutesText(p.offline_alert_minutes)}
            <SeverityBadge severity={p.offline_severity} />
          </span>
        ),
    },
    {
      id: 'enabled',
      header: 'Enabled',
      label: 'Enabled',
      cell: (p) => (
        <EnabledToggle
          name={p.name}
          isEnabled={p.enabled}
          isDisabled={!mayManage(p)}
          title={mayManage(p) ? undefined : 'Only administrators of the policy’s target change it'}
          onChange={(enabled) => onToggle(p, enabled)}
        />
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      className: 'text-right whitespace-nowrap',
      cell: (p) =>
        mayManage(p) ? (
          <div className="flex justify-end gap-0.5">
            <IconButton label={`Edit ${p.name}`} onClick={() => onEdit(p)}>
              <Pencil className="size-4" />
            </IconButton>
            <IconButton
              label={`Delete ${p.name}`}
              className="hover:text-red-600 dark:hover:text-red-400"
              onClick={() => onDelete(p)}
            >
              <Trash2 className="size-4" />
            </IconButton>
          </div>
        ) : null,
    },
  ];
}
