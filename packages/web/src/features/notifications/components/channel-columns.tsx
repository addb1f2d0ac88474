import { History, Mail, MessageSquare, Pencil, Send, Trash2, Webhook } from 'lucide-react';
import { CHANNEL_KIND_LABELS } from '@outpost/contract/notification-channels';
import type { ChannelKind, NotificationChannel } from '@outpost/contract/notification-channels';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { relativeTime } from '../../../lib/format';
import { destinationOf } from '../lib/channel-form';
import { DeliveryBadge } from './deliveries-dialog';

// The Notification Channels table (docs/product/monitoring.md#the-notification-channels-screen):
// the channel and where it sends, its kind, state and last delivery, and its actions.

const KIND_ICONS: Record<ChannelKind, typeof Mail> = {
  email: Mail,
  webhook: Webhook,
  slack: MessageSquare,
  teams: MessageSquare,
};

export function channelColumns(a: {
  isSending: boolean;
  onTest: (c: NotificationChannel) => void;
  onLog: (c: NotificationChannel) => void;
  onEdit: (c: NotificationChannel) => void;
  onDelete: (c: NotificationChannel) => void;
}): Column<NotificationChannel>[] {
  return [
    {
      id: 'name',
      header: 'Channel',
      sticky: true,
      cell: (c) => {
        const Icon = KIND_ICONS[c.kind];
        return (
          <div className="flex items-center gap-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-300">
              <Icon className="size-4" aria-hidden />
            </span>
            <div className="min-w-0">
              <p className="font-medium text-slate-900 dark:text-white">{c.name}</p>
              <p className="truncate text-xs text-slate-500 dark:text-slate-400">{destinationOf(c)}</p>
            </div>
          </div>
        );
      },
    },
    { id: 'kind', header: 'Kind', label: 'Kind', cell: (c) => CHANNEL_KIND_LABELS[c.kind] },
    {
      id: 'state',
      header: 'State',
      label: 'State',
      cell: (c) =>
        c.enabled ? (
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
      cell: (c) =>
        c.last_delivery ? (
          <div className="flex flex-wrap items-center gap-2">
            <DeliveryBadge status={c.last_delivery.status} />
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {relativeTime(c.last_delivery.at)}
            </span>
          </div>
        ) : (
          <span className="text-slate-400">Never</span>
        ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (c) => (
        <div className="flex flex-wrap justify-end gap-0.5">
          <Button
            size="sm"
            variant="ghost"
            icon={<Send className="size-4" />}
            disabled={!c.enabled || a.isSending}
            onClick={() => a.onTest(c)}
            aria-label={`Send test to ${c.name}`}
          >
            Send test
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<History className="size-4" />}
            aria-label={`Deliveries of ${c.name}`}
            title="Deliveries"
            onClick={() => a.onLog(c)}
          />
          <Button
            size="sm"
            variant="ghost"
            icon={<Pencil className="size-4" />}
            aria-label={`Edit ${c.name}`}
            title="Edit"
            onClick={() => a.onEdit(c)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${c.name}`}
            title="Delete"
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-4" />}
            onClick={() => a.onDelete(c)}
          />
        </div>
      ),
    },
  ];
}
