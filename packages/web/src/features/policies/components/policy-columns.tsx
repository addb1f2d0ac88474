import { Link } from 'react-router';
import { Building2, Globe2, Layers, Pencil, Trash2, UserPlus, CalendarClock } from 'lucide-react';
import { IconButton } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime, relativeTime } from '../../../lib/format';
import type { Policy } from '../api/policies';
import { triggerText } from '../lib/policy-form';
import { EnabledToggle } from './enabled-toggle';

const none = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** "Nov 30, 02:30 AM": the next run is always within a few weeks (the full date is the tooltip). */
const shortDateTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

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
      <span>
        {triggerText(policy)}
        {policy.trigger === 'schedule' && (
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Each site&apos;s local time
          </span>
        )}
      </span>
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
      className: 'min-w-48 max-w-64',
      cell: (p) => (
        <>
          <Link
            to={`/policies/${p.id}`}
            className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {p.name}
          </Link>
          <p
            className="mt-0.5 max-w-60 truncate text-xs text-slate-500 dark:text-slate-400"
            title={p.package_name ?? undefined}
          >
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
      className: 'min-w-52',
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
            {shortDateTime.format(new Date(p.next_run_at))}
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
