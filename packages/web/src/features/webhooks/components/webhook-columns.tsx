import { History, Pencil, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import type { Webhook } from '@outpost/contract/webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { relativeTime } from '../../../lib/format';
import { eventLabel, WebhookDeliveryBadge } from './webhook-deliveries-dialog';

// The Webhooks table (docs/product/webhooks.md#the-webhooks-screen): the webhook and its URL, the
// events it receives, its state and last delivery, and its actions.

export function webhookColumns(a: {
  isSending: boolean;
  onTest: (w: Webhook) => void;
  onLog: (w: Webhook) => void;
  onEdit: (w: Webhook) => void;
  onDelete: (w: Webhook) => void;
}): Column<Webhook>[] {
  return [
    {
      id: 'name',
      header: 'Webhook',
      sticky: true,
      cell: (w) => (
        <div className="flex items-center gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-300">
            <WebhookIcon className="size-4" aria-hidden />
          </span>
          <div className="min-w-0">
            <p className="font-medium text-slate-900 dark:text-white">{w.name}</p>
            <p className="max-w-xs truncate text-xs text-slate-500 dark:text-slate-400">{w.url}</p>
          </div>
        </div>
      ),
    },
    {
      id: 'events',
      header: 'Events',
      label: 'Events',
      className: 'max-w-xs text-xs text-slate-600 dark:text-slate-300',
      cell: (w) =>
        w.events.length <= 3
          ? w.events.map(eventLabel).join(', ')
          : `${w.events.slice(0, 2).map(eventLabel).join(', ')} and ${w.events.length - 2} more`,
    },
    {
      id: 'state',
      header: 'State',
      label: 'State',
      cell: (w) =>
        w.enabled ? (
          <Badge tone="green" dot>
            Enabled
          </Badge>
        ) : (
          <Badge tone="gray">Disabled</Badge>
        ),
    },
    {
      id: 'last',
      header: 'Last delivery',
      label: 'Last delivery',
      cell: (w) =>
        w.last_delivery ? (
          <div className="flex flex-wrap items-center gap-2">
            <WebhookDeliveryBadge status={w.last_delivery.status} />
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {relativeTime(w.last_delivery.at)}
            </span>
          </div>
        ) : (
          <span className="text-slate-500 dark:text-slate-400">Never</span>
        ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (w) => (
        <div className="flex flex-wrap justify-end gap-0.5">
          <Button
            size="sm"
            variant="ghost"
            icon={<Send className="size-4" />}
            disabled={!w.enabled || a.isSending}
            onClick={() => a.onTest(w)}
            aria-label={`Send test to ${w.name}`}
          >
            Send test
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<History className="size-4" />}
            aria-label={`Deliveries of ${w.name}`}
            title="Deliveries"
            onClick={() => a.onLog(w)}
          />
          <Button
            size="sm"
            variant="ghost"
            icon={<Pencil className="size-4" />}
            aria-label={`Edit ${w.name}`}
            title="Edit"
            onClick={() => a.onEdit(w)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${w.name}`}
            title="Delete"
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-4" />}
            onClick={() => a.onDelete(w)}
          />
        </div>
      ),
    },
  ];
}
