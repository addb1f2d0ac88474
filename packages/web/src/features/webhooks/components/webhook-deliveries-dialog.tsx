import { useState } from 'react';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_TEST_EVENT } from '@outpost/contract/webhooks';
import type { Webhook, WebhookDelivery, WebhookEvent } from '@outpost/contract/webhooks';
import { deliveryColumns, DeliveryLogDialog } from '../../../components/deliveries/delivery-log';
import { Pager } from '../../../components/ui/pager';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSendToWebhook, useWebhookDeliveries } from '../../../lib/api/webhooks';

export { DeliveryBadge as WebhookDeliveryBadge } from '../../../components/deliveries/delivery-log';

// A webhook's delivery log (docs/product/webhooks.md#deliveries), newest first, a page at a time:
// the event, its attempts and the last answer's status code, the error and the next attempt, and
// Redeliver.

export const eventLabel = (event: string) =>
  event === WEBHOOK_TEST_EVENT ? 'Test' : (WEBHOOK_EVENT_LABELS[event as WebhookEvent] ?? event);

export function WebhookDeliveriesDialog({
  webhook,
  onClose,
}: {
  webhook: Webhook | null;
  onClose: () => void;
}) {
  return webhook && <DeliveriesLog key={webhook.id} webhook={webhook} onClose={onClose} />;
}

function DeliveriesLog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(webhook.id, page);
  const send = useSendToWebhook();
  const toast = useToast();

  async function redeliver(d: WebhookDelivery) {
    try {
      await send.mutateAsync({ id: webhook.id, redeliver: d.id });
      toast.show({
        type: 'success',
        title: 'Redelivery queued',
        message: `${eventLabel(d.event)} #${d.id} is sent again to ${webhook.name}.`,
      });
      setPage(1);
      void log.refetch();
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not redeliver', message: errorMessage(err, '') });
    }
  }

  const columns = deliveryColumns<WebhookDelivery>({
    what: {
      id: 'event',
      header: 'Event',
      label: 'Event',
      cell: (d) => (
        <div>
          <p className="font-medium text-slate-900 dark:text-white">{eventLabel(d.event)}</p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            #{d.id} · {d.event}
            {d.redelivery_of !== null && ` · redelivery of #${d.redelivery_of}`}
          </p>
        </div>
      ),
    },
    codeLabel: (code) => `HTTP ${code}`,
    canRedeliver: !send.isPending && webhook.enabled,
    onRedeliver: (d) => void redeliver(d),
  });

  return (
    <DeliveryLogDialog
      title={`Deliveries: ${webhook.name}`}
      query={log}
      rows={log.data?.data ?? []}
      columns={columns}
      onClose={onClose}
      footer={
        <div className="mt-4">
          <Pager
            page={page}
            totalPages={log.data?.pagination.totalPages ?? 1}
            onPageChange={setPage}
            label="Deliveries pages"
          />
        </div>
      }
    />
  );
}
