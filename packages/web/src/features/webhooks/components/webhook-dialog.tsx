import { useState } from 'react';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_LABELS, WebhookCreateBody } from '@outpost/contract/webhooks';
import type { Webhook, WebhookCreated, WebhookEvent } from '@outpost/contract/webhooks';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Input, Switch } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api-client';
import { useSaveWebhook } from '../../../lib/api/webhooks';

// Create an event webhook (no `webhook`) or change one (docs/product/webhooks.md#the-webhooks-screen):
// name, URL, the events it receives, enabled, and a secret that is write-only (blank keeps it, or
// on creation lets Outpost make one, shown once).

type Form = { name: string; url: string; secret: string; enabled: boolean; events: WebhookEvent[] };
type Errors = Partial<Record<keyof Form, string>>;

export function WebhookDialog({
  webhook,
  onClose,
  onCreated,
}: {
  /** undefined: closed; null: a new webhook */
  webhook: Webhook | null | undefined;
  onClose: () => void;
  onCreated: (created: WebhookCreated) => void;
}) {
  return webhook === undefined ? null : (
    <WebhookFormDialog key={webhook?.id ?? 'new'} webhook={webhook} onClose={onClose} onCreated={onCreated} />
  );
}

function WebhookFormDialog({
  webhook,
  onClose,
  onCreated,
}: {
  webhook: Webhook | null;
  onClose: () => void;
  onCreated: (created: WebhookCreated) => void;
}) {
  const [form, setForm] = useState<Form>(() => ({
    name: webhook?.name ?? '',
    url: webhook?.url ?? '',
    secret: '',
    enabled: webhook?.enabled ?? true,
    events: webhook?.events ?? [],
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveWebhook();
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit() {
    const body = { ...form, secret: form.secret || undefined };
    const parsed = WebhookCreateBody.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]) as keyof Form;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: webhook?.id ?? null, body });
      if (!webhook) {
        onCreated(saved);
      }
      onClose();
    } catch (err) {
      setFailure(errorMessage(err, 'Could not save the webhook'));
    }
  }

  const toggle = (e: WebhookEvent, on: boolean) =>
    set('events', on ? [...form.events, e] : form.events.filter((x) => x !== e));

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={webhook ? `Edit ${webhook.name}` : 'New webhook'}
      size="md"
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={save.isPending} onClick={() => void submit()}>
            {webhook ? 'Save' : 'Create webhook'}
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {failure && <Alert tone="error">{failure}</Alert>}
        <Field label="Name" htmlFor="webhook-name" error={errors.name}>
          <Input
            id="webhook-name"
            value={form.name}
            placeholder="Ticketing system"
            autoComplete="off"
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field label="Payload URL" htmlFor="webhook-url" error={errors.url}>
          <Input
            id="webhook-url"
            type="url"
            value={form.url}
            placeholder="https://"
            autoComplete="off"
            onChange={(e) => set('url', e.target.value)}
          />
        </Field>
        <Field
          label="Signing secret"
          htmlFor="webhook-secret"
          error={errors.secret}
          hint={
            webhook
              ? 'Leave blank to keep the current secret.'
              : 'Leave blank and Outpost makes one, shown once after you create the webhook.'
          }
        >
          <Input
            id="webhook-secret"
            type="password"
            value={form.secret}
            autoComplete="new-password"
            onChange={(e) => set('secret', e.target.value)}
          />
        </Field>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Events</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((e) => (
              <Checkbox
                key={e}
                label={WEBHOOK_EVENT_LABELS[e]}
                checked={form.events.includes(e)}
                onChange={(ev) => toggle(e, ev.target.checked)}
              />
            ))}
          </div>
          {errors.events && (
            <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
              {errors.events}
            </p>
          )}
        </fieldset>
        <Switch
          checked={form.enabled}
          onChange={(v) => set('enabled', v)}
          label="Enabled"
          description="A disabled webhook receives nothing, tests included."
        />
      </form>
    </Dialog>
  );
}
