import { useState } from 'react';
import { Pencil, Plus, Route, Trash2 } from 'lucide-react';
import type { AlertRoute } from '@outpost/contract/alerts';
import { ALERT_CONDITION_LABELS } from '@outpost/contract/alerts';
import type { NotificationChannel } from '@outpost/contract/notification-channels';
import { SeverityBadge } from '../../../components/alerts/severity-badge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import type { Column } from '../../../components/ui/data-table';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlertRoutes, useDeleteAlertRoute } from '../api/alert-routes';
import { RouteDialog } from './route-dialog';

// docs/product/monitoring.md#routing-rules — which alerts go to which channels. Without rules,
// every enabled channel hears warning and critical alerts.

function routeColumns({
  onEdit,
  onDelete,
}: {
  onEdit: (r: AlertRoute) => void;
  onDelete: (r: AlertRoute) => void;
}): Column<AlertRoute>[] {
  const muted = 'text-slate-500 dark:text-slate-400';
  return [
    {
      id: 'name',
      header: 'Rule',
      sticky: true,
      cell: (r) => <span className="font-medium text-slate-900 dark:text-white">{r.name}</span>,
    },
    {
      id: 'severities',
      header: 'Severities',
      label: 'Severities',
      cell: (r) => (
        <div className="flex flex-wrap gap-1">
          {r.severities.map((s) => (
            <SeverityBadge key={s} severity={s} />
          ))}
        </div>
      ),
    },
    {
      id: 'conditions',
      header: 'Conditions',
      label: 'Conditions',
      className: 'max-w-56',
      cell: (r) =>
        r.conditions.length === 0 ? (
          <span className={muted}>Every condition</span>
        ) : (
          r.conditions.map((c) => ALERT_CONDITION_LABELS[c]).join(', ')
        ),
    },
    {
      id: 'target',
      header: 'Devices',
      label: 'Devices',
      cell: (r) => (r.target.type === 'tenant' ? 'All devices' : r.target.name),
    },
    {
      id: 'channels',
      header: 'Channels',
      label: 'Channels',
      className: 'max-w-56',
      cell: (r) => r.channels.map((c) => c.name).join(', '),
    },
    {
      id: 'enabled',
      header: 'Status',
      label: 'Status',
      cell: (r) => (
        <Badge tone={r.enabled ? 'green' : 'gray'} dot>
          {r.enabled ? 'Enabled' : 'Disabled'}
        </Badge>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      cell: (r) => (
        <>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit ${r.name}`}
            icon={<Pencil className="size-3.5" />}
            onClick={() => onEdit(r)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${r.name}`}
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-3.5" />}
            onClick={() => onDelete(r)}
          />
        </>
      ),
    },
  ];
}

export function RoutingRules({ channels }: { channels: NotificationChannel[] }) {
  const routes = useAlertRoutes();
  const remove = useDeleteAlertRoute();
  const toast = useToast();
  const [editing, setEditing] = useState<AlertRoute | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<AlertRoute | null>(null);

  async function confirmDelete() {
    if (!deleting) {
      return;
    }
    try {
      await remove.mutateAsync(deleting.id);
      toast.show({ type: 'success', title: 'Rule deleted', message: deleting.name });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not delete the rule', message: errorMessage(err, '') });
    }
    setDeleting(null);
  }

  return (
    <Card data-testid="routing-rules">
      <CardHeader
        title="Routing rules"
        description="Which alerts go to which channels. Without rules, every enabled channel hears warning and critical alerts."
        actions={
          <Button
            variant="primary"
            size="sm"
            icon={<Plus className="size-4" />}
            onClick={() => setEditing(null)}
          >
            New rule
          </Button>
        }
      />
      <QueryState
        isPending={routes.isPending}
        failures={routes}
        error={routes.error ? errorMessage(routes.error, 'Failed to load the routing rules') : null}
        errorTitle="Error loading routing rules"
        onRetry={() => void routes.refetch()}
        isEmpty={(routes.data ?? []).length === 0}
        empty={{
          icon: <Route className="size-6" />,
          title: 'No routing rules',
          message:
            'Every enabled channel hears warning and critical alerts. Add a rule to send alerts to chosen channels only.',
        }}
        loadingLabel="Loading routing rules"
      >
        <DataTable
          rows={routes.data ?? []}
          columns={routeColumns({ onEdit: setEditing, onDelete: setDeleting })}
          cards
          rowAttributes={(r) => ({ 'data-testid': 'route-row', 'data-route-id': r.id })}
        />
      </QueryState>
      <RouteDialog route={editing} channels={channels} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete routing rule"
        message={
          deleting && (
            <>
              Delete <strong>{deleting.name}</strong>? Alerts follow the remaining rules; with none left,
              every enabled channel hears warning and critical alerts.
            </>
          )
        }
        confirmLabel="Delete rule"
        isBusy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </Card>
  );
}
