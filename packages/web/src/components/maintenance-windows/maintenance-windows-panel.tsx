import { useState } from 'react';
import { CalendarClock, Pencil, Plus, Trash2 } from 'lucide-react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { ConfirmDialog } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { useToast } from '../ui/toast';
import { errorMessage } from '../../lib/api-client';
import { useDeleteMaintenanceWindow, useMaintenanceWindows } from '../../lib/api/maintenance-windows';
import type { MaintenanceWindow, WindowOwner } from '../../lib/api/maintenance-windows';
import { daysText, durationText, nextText } from './window-form';
import { WindowDialog } from './window-dialog';

// docs/product/rollouts.md#maintenance-windows: a site's or a group's windows, listed with their
// days, hours and next opening in the zone they are read in; those who may change the owner add,
// edit and delete them.

type Props = {
  owner: WindowOwner;
  /** the site's zone; null: a group for all sites (each device's site zone); undefined: a site's group (its windows say) */
  timezone?: string | null;
  canEdit: boolean;
  /** the site dialog holds its list while a window dialog is open */
  onEditingChange?: (isEditing: boolean) => void;
};

const zoneTextOf = (timezone: string | null | undefined) =>
  timezone
    ? `${timezone} time`
    : timezone === null
      ? "each device's site time zone; UTC without one"
      : "the site's time zone";

/** The windows and their dialogs, without a frame (the group page's card, the site's dialog). */
export function MaintenanceWindowsPanel({ owner, timezone, canEdit, onEditingChange }: Props) {
  const toast = useToast();
  const windows = useMaintenanceWindows(owner);
  const remove = useDeleteMaintenanceWindow();
  const [editing, setEditing] = useState<MaintenanceWindow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MaintenanceWindow | null>(null);
  const edit = (w: MaintenanceWindow | 'new' | null) => {
    setEditing(w);
    onEditingChange?.(w !== null);
  };
  const ask = (w: MaintenanceWindow | null) => {
    setDeleting(w);
    onEditingChange?.(w !== null);
  };
  // the openings were computed when the list loaded; "in 3 h" is from then
  const now = windows.dataUpdatedAt;
  const zoneText = zoneTextOf(timezone === undefined ? (windows.data?.[0]?.timezone ?? undefined) : timezone);

  const confirmDelete = (w: MaintenanceWindow) =>
    remove.mutate(w.id, {
      onSuccess: () => {
        toast.show({ type: 'success', title: 'Window deleted', message: `${w.name} was deleted` });
        ask(null);
      },
      onError: (err) => {
        toast.show({ type: 'error', title: 'Failed to delete the window', message: errorMessage(err, '') });
        ask(null);
      },
    });

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3 pb-3">
        <p className="text-sm text-slate-500 dark:text-slate-400">Read in {zoneText}.</p>
        {canEdit && (
          <Button size="sm" icon={<Plus className="size-3.5" />} onClick={() => edit('new')}>
            Add window
          </Button>
        )}
      </div>
      {windows.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner className="size-5" />
        </div>
      ) : windows.isError ? (
        <p className="py-4 text-sm text-red-600 dark:text-red-400">
          {errorMessage(windows.error, 'Failed to load the maintenance windows')}
        </p>
      ) : windows.data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center dark:border-slate-700">
          <CalendarClock className="size-5 text-slate-400" aria-hidden />
          <p className="text-sm text-slate-600 dark:text-slate-300">No maintenance windows</p>
          <p className="max-w-sm text-xs text-slate-500 dark:text-slate-400">
            Without a window, deployments that run only inside maintenance windows start these devices at
            once.
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {windows.data.map((w) => (
            <WindowRow key={w.id} window={w} now={now} canEdit={canEdit} onEdit={edit} onDelete={ask} />
          ))}
        </ul>
      )}
      {editing !== null && (
        <WindowDialog
          owner={owner}
          window={editing === 'new' ? null : editing}
          zoneText={zoneText}
          onClose={() => edit(null)}
        />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete maintenance window"
        message={
          <p>
            Delete <strong>{deleting?.name}</strong>? Devices waiting for it wait for their other windows, or
            start at once without any.
          </p>
        }
        confirmLabel="Delete"
        isBusy={remove.isPending}
        onCancel={() => ask(null)}
        onConfirm={() => deleting && confirmDelete(deleting)}
      />
    </div>
  );
}

function WindowRow({
  window: w,
  now,
  canEdit,
  onEdit,
  onDelete,
}: {
  window: MaintenanceWindow;
  now: number;
  canEdit: boolean;
  onEdit: (w: MaintenanceWindow) => void;
  onDelete: (w: MaintenanceWindow) => void;
}) {
  const next = w.enabled ? nextText(w, now) : null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3" data-testid="maintenance-window">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900 dark:text-white">{w.name}</span>
          {!w.enabled && <Badge tone="gray">Off</Badge>}
        </div>
        <div className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
          {daysText(w.days)} · {w.start_time} for {durationText(w.duration_minutes)}
        </div>
        {next && <div className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{next}</div>}
      </div>
      {canEdit && (
        <div className="flex shrink-0 items-center">
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit ${w.name}`}
            icon={<Pencil className="size-3.5" />}
            onClick={() => onEdit(w)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${w.name}`}
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-3.5" />}
            onClick={() => onDelete(w)}
          />
        </div>
      )}
    </li>
  );
}

/** The windows as a card (the group page). */
export function MaintenanceWindowsCard(props: Props) {
  return (
    <Card className="mt-6" data-testid="maintenance-windows-card">
      <CardHeader
        title="Maintenance windows"
        description="When deployments that run only inside maintenance windows may start this group's devices"
      />
      <div className="px-5 py-4">
        <MaintenanceWindowsPanel {...props} />
      </div>
    </Card>
  );
}
