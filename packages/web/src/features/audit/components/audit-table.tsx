import { Fragment, useState } from 'react';
import type { ComponentType } from 'react';
import { ChevronDown, ChevronRight, LogIn, Pencil, PlusCircle, Trash2, Zap } from 'lucide-react';
import { roleLabel } from '@outpost/contract/auth';
import { Badge } from '../../../components/ui/badge';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import type { AuditEntry } from '../api/audit';
import { cn } from '../../../lib/cn';
import { ACTION_TONES, actionKind, prettyJson, shortAge } from '../lib/audit-format';
import { auditFields, changedKeys } from '../lib/audit-values';
import type { AuditActionKind } from '@outpost/contract/audit';
import { adminMessages } from '@outpost/contract/messages';

const ACTION_ICONS: Record<AuditActionKind, ComponentType<{ className?: string }>> = {
  create: PlusCircle,
  delete: Trash2,
  update: Pencil,
  auth: LogIn,
  other: Zap,
};

/** docs/product/activity.md#audit-log — the action as a badge whose colour and icon follow the action's words. */
export function ActionBadge({ action }: { action: string }) {
  const kind = actionKind(action);
  const Icon = ACTION_ICONS[kind];
  return (
    <Badge tone={ACTION_TONES[kind]} className="gap-1 py-1">
      <Icon className="size-3.5" aria-hidden />
      <span data-action-kind={kind}>{action}</span>
    </Badge>
  );
}

const toDate = (value: string) => new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);

const hasDetails = (e: AuditEntry) => Boolean(e.details || e.old_values || e.new_values);

function ValuesBlock({
  title,
  text,
  tone,
  changed,
}: {
  title: string;
  text: string;
  tone: 'old' | 'new';
  changed: Set<string>;
}) {
  const fields = auditFields(text);
  const box = cn(
    'max-h-64 overflow-auto rounded-lg p-3 text-xs leading-relaxed ring-1 ring-inset',
    tone === 'old'
      ? 'bg-red-50/50 text-slate-800 ring-red-200/70 dark:bg-red-500/5 dark:text-slate-200 dark:ring-red-500/20'
      : 'bg-emerald-50/50 text-slate-800 ring-emerald-200/70 dark:bg-emerald-500/5 dark:text-slate-200 dark:ring-emerald-500/20',
  );
  return (
    <div className="min-w-0">
      <p className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {title}
      </p>
      {fields ? (
        <dl aria-label={title} className={cn(box, 'grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 gap-y-1')}>
          {fields.map((f) => (
            <div key={f.key} className="contents">
              <dt className="text-slate-500 dark:text-slate-400">{f.label}</dt>
              <dd className={cn('break-words', changed.has(f.key) && 'font-semibold')}>
                {f.value}
                {changed.has(f.key) && <span className="sr-only"> (changed)</span>}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <pre className={cn(box, 'font-mono whitespace-pre-wrap')}>{prettyJson(text)}</pre>
      )}
    </div>
  );
}

function EntryDetails({ entry }: { entry: AuditEntry }) {
  const changed = changedKeys(entry.old_values, entry.new_values);
  return (
    <div className="space-y-4">
      {entry.details && <p className="text-sm text-slate-700 dark:text-slate-200">{entry.details}</p>}
      {(entry.old_values || entry.new_values) && (
        <div className="grid gap-4 md:grid-cols-2">
          {entry.old_values && (
            <ValuesBlock title="Old Values" text={entry.old_values} tone="old" changed={changed} />
          )}
          {entry.new_values && (
            <ValuesBlock title="New Values" text={entry.new_values} tone="new" changed={changed} />
          )}
        </div>
      )}
      {entry.user_agent && (
        <p className="text-xs break-all text-slate-500 dark:text-slate-400">
          <span className="font-semibold text-slate-600 dark:text-slate-300">User Agent: </span>
          {entry.user_agent}
        </p>
      )}
    </div>
  );
}

// docs/product/activity.md#audit-log — columns Action, User, Resource, Timestamp, Details; each row's details
// expand and collapse independently (docs/product/activity.md).
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });
  return (
    <Table cards>
      <THead>
        <tr>
          <Th>Action</Th>
          <Th>User</Th>
          <Th>Resource</Th>
          <Th>Timestamp</Th>
          <Th>Details</Th>
        </tr>
      </THead>
      <TBody>
        {entries.map((e) => {
          const isOpen = open.has(e.id);
          const at = toDate(e.created_at);
          return (
            <Fragment key={e.id}>
              <Tr className={cn(isOpen && 'bg-slate-50/70 dark:bg-slate-800/30')}>
                <Td className="whitespace-nowrap">
                  <ActionBadge action={e.action} />
                </Td>
                <Td className="whitespace-nowrap" data-label="User">
                  <div className="font-medium text-slate-900 dark:text-white">
                    {e.user_name || adminMessages.unknownUser}
                  </div>
                  {(e.user_email || e.user_id !== null) && (
                    <div className="text-xs text-slate-500 dark:text-slate-400">
                      {e.user_email || `ID: ${e.user_id}`}
                    </div>
                  )}
                  {e.user_role && (
                    <div className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                      {roleLabel(e.user_role, true)}
                    </div>
                  )}
                </Td>
                <Td className="whitespace-nowrap" data-label="Resource">
                  <div className="text-slate-900 dark:text-white">{e.resource_type || 'N/A'}</div>
                  {e.resource_id !== null && e.resource_id !== undefined && e.resource_id !== '' && (
                    <div className="font-mono text-xs text-slate-500 dark:text-slate-400">
                      ID: {e.resource_id}
                    </div>
                  )}
                </Td>
                <Td className="whitespace-nowrap" data-label="Timestamp">
                  <div className="text-slate-900 dark:text-white">{at.toLocaleDateString()}</div>
                  <div className="text-xs text-slate-500 dark:text-slate-400">
                    {at.toLocaleTimeString()} · {shortAge(at)}
                  </div>
                  {e.ip_address && (
                    <div className="font-mono text-xs text-slate-500 dark:text-slate-400">{e.ip_address}</div>
                  )}
                </Td>
                <Td className="max-w-md" data-full>
                  {hasDetails(e) ? (
                    <div className="flex flex-col items-start gap-1">
                      {e.details && !isOpen && (
                        <p
                          title={e.details}
                          className="line-clamp-1 text-sm text-slate-600 dark:text-slate-300"
                        >
                          {e.details}
                        </p>
                      )}
                      <button
                        type="button"
                        aria-expanded={isOpen}
                        onClick={() => toggle(e.id)}
                        className="inline-flex items-center gap-1 text-xs font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
                      >
                        {isOpen ? (
                          <ChevronDown className="size-3.5" />
                        ) : (
                          <ChevronRight className="size-3.5" />
                        )}
                        {isOpen ? 'Hide Details' : 'Show Details'}
                      </button>
                    </div>
                  ) : (
                    <span className="text-sm text-slate-500 dark:text-slate-400">
                      {adminMessages.noDetails}
                    </span>
                  )}
                </Td>
              </Tr>
              {isOpen && (
                <tr className="bg-slate-50/70 dark:bg-slate-800/30">
                  <td colSpan={5} className="px-4 pt-2 pb-5">
                    <EntryDetails entry={e} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </TBody>
    </Table>
  );
}
