import { Link } from 'react-router';
import { Building2, Globe2, Layers, Pencil, Trash2, UserPlus, CalendarClock } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime, relativeTime } from '../../../lib/format';
import type { Policy } from '../api/policies';
import { triggerText } from '../lib/policy-form';
import { EnabledToggle } from './enabled-toggle';

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

const targetIcons = { tenant: Globe2, site: Building2, group: Layers } as const;

export function TargetLabel({ target }: { target: Policy['target'] }) {
  const Icon = targetIcons[target.type];
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <Icon className="size-3.5 text-slate-400" aria-hidden />
      {target.name}
    </span>
  );
}

export function TriggerLabel({ policy }: { policy: Policy }) {
  const Icon = policy.trigger === 'join' ? UserPlus : CalendarClock;
  return (
    <span className="inline-flex items-start gap-1.5">
      <Icon className="mt-0.5 size-3.5 shrink-0 text-slate-400" aria-hidden />
      <span>{triggerText(policy)}</span>
    </span>
  );
}

const when = (value: string | null) =>
  value ? (
    <span title={formatDateTime(value)} className="whitespace-nowrap">
      {relativeTime(value)}
    </span>
  ) : (
    none
  );

/** The policies list's columns; the toggle, Edit and Delete only where the caller may change the policy. */
export function policyColumns({
  mayManage,
  onToggle,
  onEdit,
  onDelete,
}: {
  mayManage: (p: Policy) => boolean;
  onToggle: (p: Policy, enabled: boolean) => void;
  onEdit: (p: Policy) => void;
  onDelete: (p: Policy) => void;
}): Column<Policy>[] {
  return [
    {
      id: 'name',
      header: 'Policy',
      sticky: true,
      className: 'min-w-56 max-w-sm',
      cell: (p) => (
        <>
          <Link
            to={`/policies/${p.id}`}
            className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {p.name}
          </Link>
          <p className="mt-0.5 truncate text-xs text-slate-500 dark:text-slate-400">
            {p.package_name ?? 'Package deleted'}
          </p>
        </>
      ),
    },
    { id: 'target', header: 'Target', label: 'Target', cell: (p) => <TargetLabel target={p.target} /> },
    {
      id: 'trigger',
      header: 'Trigger',
      label: 'Trigger',
      className: 'min-w-64',
      cell: (p) => <TriggerLabel policy={p} />,
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
          title={mayManage(p) ? undefined : 'Only administrators of all sites change this policy'}
          onChange={(enabled) => onToggle(p, enabled)}
        />
      ),
    },
    { id: 'last', header: 'Last run', label: 'Last run', cell: (p) => when(p.last_run_at) },
    {
      id: 'next',
      header: 'Next run',
      label: 'Next run',
      cell: (p) =>
        p.trigger === 'join' && p.enabled ? (
          <span className="text-slate-500 dark:text-slate-400">On join</span>
        ) : p.next_run_at ? (
          <span className="whitespace-nowrap" title={formatDateTime(p.next_run_at)}>
            {formatDateTime(p.next_run_at)}
          </span>
        ) : (
          none
        ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      className: 'text-right whitespace-nowrap',
      cell: (p) =>
        mayManage(p) ? (
          <div className="flex justify-end gap-1">
            <Button size="sm" variant="ghost" icon={<Pencil className="size-4" />} onClick={() => onEdit(p)}>
              Edit
            </Button>
            <Button
              size="sm"
              variant="ghost"
              icon={<Trash2 className="size-4" />}
              onClick={() => onDelete(p)}
              aria-label={`Delete ${p.name}`}
            >
              Delete
            </Button>
          </div>
        ) : null,
    },
  ];
}
