import { useState } from 'react';
import { Bell, History, Mail, MessageSquare, Pencil, Plus, Send, Trash2, Webhook } from 'lucide-react';
import { CHANNEL_KIND_LABELS } from '@outpost/contract/notification-channels';
import type {
  ChannelCreated,
  ChannelKind,
  NotificationChannel,
} from '@outpost/contract/notification-channels';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { CopyBlock } from '../../../components/ui/copy-block';
import { DataTable } from '../../../components/ui/data-table';
import type { Column } from '../../../components/ui/data-table';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { relativeTime } from '../../../lib/format';
import { useChannels, useDeleteChannel, useSendToChannel } from '../../../lib/api/notification-channels';
import { ChannelDialog } from '../components/channel-dialog';
import { DeliveriesDialog, DeliveryBadge } from '../components/deliveries-dialog';
import { destinationOf } from '../lib/channel-form';

// docs/product/monitoring.md#notification-channels — where Outpost tells the team what happened:
// the organisation's channels, Send test, the delivery log; administrators of all sites only.

const KIND_ICONS: Record<ChannelKind, typeof Mail> = {
  email: Mail,
  webhook: Webhook,
  slack: MessageSquare,
  teams: MessageSquare,
};

export default function NotificationChannelsPage() {
  const channels = useChannels();
  const remove = useDeleteChannel();
  const send = useSendToChannel();
  const toast = useToast();
  const [editing, setEditing] = useState<NotificationChannel | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<NotificationChannel | null>(null);
  const [logOf, setLogOf] = useState<NotificationChannel | null>(null);
  const [created, setCreated] = useState<ChannelCreated | null>(null);

  if (isForbidden(channels.error)) {
    return (
      <>
        <PageHeader title="Notification Channels" />
        <AdminOnlyState feature="Notification channels" details={errorMessage(channels.error, '')} />
      </>
    );
  }

  async function sendTest(c: NotificationChannel) {
    try {
      await send.mutateAsync({ id: c.id });
      toast.show({
        type: 'success',
        title: 'Test sent',
        message: `A test message is on its way to ${c.name}.`,
      });
      setLogOf(c);
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not send a test', message: errorMessage(err, '') });
    }
  }

  async function confirmDelete() {
    if (!deleting) {
      return;
    }
    try {
      await remove.mutateAsync(deleting.id);
      toast.show({
        type: 'success',
        title: 'Channel deleted',
        message: `${deleting.name} sends nothing from now on.`,
      });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not delete the channel', message: errorMessage(err, '') });
    }
    setDeleting(null);
  }

  const columns: Column<NotificationChannel>[] = [
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
            disabled={!c.enabled || send.isPending}
            onClick={() => void sendTest(c)}
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
            onClick={() => setLogOf(c)}
          />
          <Button
            size="sm"
            variant="ghost"
            icon={<Pencil className="size-4" />}
            aria-label={`Edit ${c.name}`}
            title="Edit"
            onClick={() => setEditing(c)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${c.name}`}
            title="Delete"
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-4" />}
            onClick={() => setDeleting(c)}
          />
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Notification Channels"
        description="Where Outpost tells your team what happened: e-mail, signed webhooks, Slack and Microsoft Teams."
        actions={
          <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => setEditing(null)}>
            New channel
          </Button>
        }
      />
      <Card>
        <QueryState
          isPending={channels.isPending}
          failures={channels}
          error={channels.error ? errorMessage(channels.error, 'Failed to load the channels') : null}
          errorTitle="Error loading channels"
          onRetry={() => void channels.refetch()}
          isEmpty={(channels.data ?? []).length === 0}
          empty={{
            icon: <Bell className="size-6" />,
            title: 'No channels yet',
            message: 'Add an e-mail address, a webhook, Slack or Teams, then send a test.',
          }}
          loadingLabel="Loading channels"
        >
          <DataTable rows={channels.data ?? []} columns={columns} cards />
        </QueryState>
      </Card>
      <ChannelDialog
        channel={editing}
        onClose={() => setEditing(undefined)}
        onCreated={(c) => c.signing_secret && setCreated(c)}
      />
      <DeliveriesDialog channel={logOf} onClose={() => setLogOf(null)} />
      <Dialog
        isOpen={created !== null}
        onClose={() => setCreated(null)}
        title="Signing secret"
        size="md"
        footer={
          <Button variant="primary" onClick={() => setCreated(null)}>
            Done
          </Button>
        }
      >
        <div className="space-y-3 text-sm text-slate-600 dark:text-slate-300">
          <p>
            Every request to <strong>{created?.name}</strong> carries{' '}
            <code className="font-mono">X-Outpost-Signature</code>, the HMAC-SHA256 of its body with this
            secret. Copy it now: it is not shown again.
          </p>
          <CopyBlock text={created?.signing_secret ?? ''} isWrapped />
        </div>
      </Dialog>
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete channel"
        message={
          deleting && (
            <>
              Delete <strong>{deleting.name}</strong>? It sends nothing from now on and its delivery log is
              deleted with it.
            </>
          )
        }
        confirmLabel="Delete channel"
        isBusy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
