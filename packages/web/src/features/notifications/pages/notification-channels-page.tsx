import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Bell, Plus, Route } from 'lucide-react';
import type { ChannelCreated, NotificationChannel } from '@outpost/contract/notification-channels';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { Tabs } from '../../../components/ui/tabs';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useChannels, useDeleteChannel, useSendToChannel } from '../../../lib/api/notification-channels';
import { channelColumns } from '../components/channel-columns';
import { ChannelDialog } from '../components/channel-dialog';
import { DeliveriesDialog } from '../components/deliveries-dialog';
import { RoutingRules } from '../components/routing-rules';
import { SigningSecretDialog } from '../components/signing-secret-dialog';

// docs/product/monitoring.md#notification-channels — where Outpost tells the team what happened:
// the organisation's channels, Send test, the delivery log; administrators of all sites only.

export default function NotificationChannelsPage() {
  const channels = useChannels();
  const remove = useDeleteChannel();
  const send = useSendToChannel();
  const toast = useToast();
  const [editing, setEditing] = useState<NotificationChannel | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<NotificationChannel | null>(null);
  const [logOf, setLogOf] = useState<NotificationChannel | null>(null);
  const [created, setCreated] = useState<ChannelCreated | null>(null);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'routing' ? 'routing' : 'channels';

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

  const columns = channelColumns({
    isSending: send.isPending,
    onTest: (c) => void sendTest(c),
    onLog: setLogOf,
    onEdit: setEditing,
    onDelete: setDeleting,
  });

  return (
    <>
      <PageHeader
        title="Notification Channels"
        description="Where Outpost tells your team what happened: e-mail, signed webhooks, Slack and Microsoft Teams."
        actions={
          tab === 'channels' && (
            <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => setEditing(null)}>
              New channel
            </Button>
          )
        }
      />
      <div className="mb-6">
        <Tabs
          active={tab}
          onChange={(key) => setParams(key === 'channels' ? {} : { tab: key }, { replace: true })}
          tabs={[
            { key: 'channels', label: 'Channels', icon: <Bell className="size-4" /> },
            { key: 'routing', label: 'Routing rules', icon: <Route className="size-4" /> },
          ]}
        />
      </div>
      {tab === 'routing' && <RoutingRules channels={channels.data ?? []} />}
      {tab === 'channels' && (
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
      )}
      <ChannelDialog
        channel={editing}
        onClose={() => setEditing(undefined)}
        onCreated={(c) => c.signing_secret && setCreated(c)}
      />
      <DeliveriesDialog
        channel={logOf}
        onClose={() => {
          setLogOf(null);
          // the row's last delivery catches up with the log just seen (a redelivery sent since)
          void channels.refetch();
        }}
      />
      <SigningSecretDialog created={created} onClose={() => setCreated(null)} />
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
