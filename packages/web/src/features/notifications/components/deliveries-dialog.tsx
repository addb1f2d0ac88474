import type { NotificationChannel, NotificationDelivery } from '@outpost/contract/notification-channels';
import { deliveryColumns, DeliveryLogDialog } from '../../../components/deliveries/delivery-log';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeliveries, useSendToChannel } from '../../../lib/api/notification-channels';

export { DeliveryBadge } from '../../../components/deliveries/delivery-log';

// A channel's delivery log (docs/product/monitoring.md#deliveries): each message, its attempts,
// the last answer's code and error, when it is tried next, and Redeliver.

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

  const columns = deliveryColumns<NotificationDelivery>({
    what: {
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
    canRedeliver: !send.isPending && channel.enabled,
    onRedeliver: (d) => void redeliver(d),
  });

  return (
    <DeliveryLogDialog
      title={`Deliveries: ${channel.name}`}
      query={log}
      rows={log.data ?? []}
      columns={columns}
      onClose={onClose}
    />
  );
}
