import { useState } from 'react';
import { Plus, Webhook as WebhookIcon } from 'lucide-react';
import type { Webhook, WebhookCreated } from '@outpost/contract/webhooks';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { CopyBlock } from '../../../components/ui/copy-block';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteWebhook, useSendToWebhook, useWebhooks } from '../../../lib/api/webhooks';
import { webhookColumns } from '../components/webhook-columns';
import { WebhookDeliveriesDialog } from '../components/webhook-deliveries-dialog';
import { WebhookDialog } from '../components/webhook-dialog';

// docs/product/webhooks.md#the-webhooks-screen — events for other systems: the organisation's
// webhooks, Send test, the delivery log with Redeliver; administrators of all sites only.

export default function WebhooksPage() {
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const send = useSendToWebhook();
  const toast = useToast();
  const [editing, setEditing] = useState<Webhook | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);

  if (isForbidden(webhooks.error)) {
    return (
      <>
        <PageHeader title="Webhooks" />
        <AdminOnlyState feature="Webhooks" details={errorMessage(webhooks.error, '')} />
      </>
    );
  }

  async function sendTest(w: Webhook) {
    try {
      await send.mutateAsync({ id: w.id });
      toast.show({
        type: 'success',
        title: 'Test sent',
        message: `A test event is on its way to ${w.name}.`,
      });
      setLogOf(w);
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
        title: 'Webhook deleted',
        message: `${deleting.name} receives nothing from now on.`,
      });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not delete the webhook', message: errorMessage(err, '') });
    }
    setDeleting(null);
  }

  const columns = webhookColumns({
    isSending: send.isPending,
    onTest: (w) => void sendTest(w),
    onLog: setLogOf,
    onEdit: setEditing,
    onDelete: setDeleting,
  });

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed JSON events for your other systems: devices, deployments, alerts, users and the audit log."
        actions={
          <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => setEditing(null)}>
            New webhook
          </Button>
        }
      />
      <Card>
        <QueryState
          isPending={webhooks.isPending}
          failures={webhooks}
          error={webhooks.error ? errorMessage(webhooks.error, 'Failed to load the webhooks') : null}
          errorTitle="Error loading webhooks"
          onRetry={() => void webhooks.refetch()}
          isEmpty={(webhooks.data ?? []).length === 0}
          empty={{
            icon: <WebhookIcon className="size-6" />,
            title: 'No webhooks yet',
            message: 'Add the URL of a system that should hear about events, choose them, then send a test.',
          }}
          loadingLabel="Loading webhooks"
        >
          <DataTable rows={webhooks.data ?? []} columns={columns} cards />
        </QueryState>
      </Card>
      <WebhookDialog
        webhook={editing}
        onClose={() => setEditing(undefined)}
        onCreated={(w) => w.signing_secret && setCreated(w)}
      />
      <WebhookDeliveriesDialog
        webhook={logOf}
        onClose={() => {
          setLogOf(null);
          void webhooks.refetch();
        }}
      />
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
            <code className="font-mono">X-Outpost-Timestamp</code> and{' '}
            <code className="font-mono">X-Outpost-Signature</code> (<code className="font-mono">v1=</code>,
            the HMAC-SHA256 of the timestamp, a dot and the body, with this secret). Copy it now: it is not
            shown again.
          </p>
          <CopyBlock text={created?.signing_secret ?? ''} isWrapped />
        </div>
      </Dialog>
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete webhook"
        message={
          deleting && (
            <>
              Delete <strong>{deleting.name}</strong>? It receives nothing from now on and its delivery log is
              deleted with it.
            </>
          )
        }
        confirmLabel="Delete webhook"
        isBusy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
