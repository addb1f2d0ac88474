import { RotateCcw } from 'lucide-react';
import type { NotificationChannel, NotificationDelivery } from '@outpost/contract/notification-channels';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import type { Column } from '../../../components/ui/data-table';
import { Dialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useDeliveries, useSendToChannel } from '../../../lib/api/notification-channels';

// A channel's delivery log (docs/product/monitoring.md#deliveries): each message, its attempts,
// the last answer's code and error, when it is tried next, and Redeliver.

export const DELIVERY_TONES: Record<NotificationDelivery['status'], Tone> = {
  delivered: 'green',
  pending: 'yellow',
  failed: 'red',
};
const STATUS_LABELS: Record<NotificationDelivery['status'], string> = {
  delivered: 'Delivered',
  pending: 'Retrying',
  failed: 'Failed',
};

export function DeliveryBadge({ status }: { status: NotificationDelivery['status'] }) {
  return (
    <Badge tone={DELIVERY_TONES[status]} dot>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

export function DeliveriesDialog({
  channel,
  onClose,
}: {
  channel: NotificationChannel | null;
  onClose: () => void;
}) {
  const log = useDeliveries(channel?.id ?? null);
  const send = useSendToChannel();
  const toast = useToast();
  if (!channel) {
    return null;
  }

  async function redeliver(d: NotificationDelivery) {
    try {
      await send.mutateAsync({ id: channel!.id, redeliver: d.id });
      toast.show({
        type: 'success',
        title: 'Redelivery queued',
        message: `${d.subject} is sent again to ${channel!.name}.`,
      });
      void log.refetch();
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not redeliver', message: errorMessage(err, '') });
    }
  }

  const columns: Column<NotificationDelivery>[] = [
    {
      id: 'when',
      header: 'Queued',
      sticky: true,
      className: 'whitespace-nowrap',
      cell: (d) => formatDateTime(d.created_at),
    },
    {
      id: 'message',
      header: 'Message',
      label: 'Message',
      cell: (d) => (
        <div>
          <p className="font-medium text-slate-900 dark:text-white">{d.subject}</p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {d.event === 'test' ? 'Test' : d.event}
            {d.redelivery_of !== null && ` · redelivery of #${d.redelivery_of}`}
          </p>
        </div>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      label: 'Status',
      cell: (d) => (
        <div className="space-y-1">
          <DeliveryBadge status={d.status} />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
            {d.last_code !== null && ` · ${d.last_code}`}
          </p>
        </div>
      ),
    },
    {
      id: 'detail',
      header: 'Details',
      label: 'Details',
      className: 'max-w-xs text-xs text-slate-600 dark:text-slate-300',
      cell: (d) =>
        d.status === 'delivered'
          ? `Delivered ${d.delivered_at ? formatDateTime(d.delivered_at) : ''}`
          : [d.last_error, d.next_attempt_at && `Next attempt ${formatDateTime(d.next_attempt_at)}`]
              .filter(Boolean)
              .join('. ') || 'Waiting to be sent',
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (d) => (
        <Button
          size="sm"
          variant="ghost"
          icon={<RotateCcw className="size-4" />}
          aria-label={`Redeliver delivery ${d.id}`}
          disabled={send.isPending || !channel.enabled}
          onClick={() => void redeliver(d)}
        >
          Redeliver
        </Button>
      ),
    },
  ];

  return (
    <Dialog isOpen onClose={onClose} title={`Deliveries: ${channel.name}`} size="xl">
      <QueryState
        isPending={log.isPending}
        failures={log}
        error={log.error ? errorMessage(log.error, 'Failed to load the deliveries') : null}
        errorTitle="Error loading deliveries"
        onRetry={() => void log.refetch()}
        isEmpty={(log.data ?? []).length === 0}
        empty={{ title: 'Nothing sent yet', message: 'Send a test to see it here.' }}
        loadingLabel="Loading deliveries"
      >
        <DataTable rows={log.data ?? []} columns={columns} cards />
      </QueryState>
    </Dialog>
  );
}
