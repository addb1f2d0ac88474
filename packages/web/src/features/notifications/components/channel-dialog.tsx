import { useState } from 'react';
import { CHANNEL_KINDS, CHANNEL_KIND_LABELS } from '@outpost/contract/notification-channels';
import type {
  ChannelCreated,
  ChannelKind,
  NotificationChannel,
} from '@outpost/contract/notification-channels';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select, Switch, Textarea } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api-client';
import { useSaveChannel } from '../../../lib/api/notification-channels';
import { bodyOf, formOf } from '../lib/channel-form';
import { DeliverySettings } from './delivery-settings';
import type { ChannelForm, FormErrors } from '../lib/channel-form';

// Create a notification channel (no `channel`) or change one (docs/product/monitoring.md#notification-channels).
// A kind never changes; secrets are write-only: blank keeps the stored one.

export function ChannelDialog({
  channel,
  onClose,
  onCreated,
}: {
  /** undefined: closed; null: a new channel */
  channel: NotificationChannel | null | undefined;
  onClose: () => void;
  onCreated: (created: ChannelCreated) => void;
}) {
  return channel === undefined ? null : (
    <ChannelFormDialog key={channel?.id ?? 'new'} channel={channel} onClose={onClose} onCreated={onCreated} />
  );
}

const HINTS: Record<ChannelKind, string> = {
  email: 'Sends an e-mail through your SMTP server.',
  webhook: 'Posts signed JSON to your endpoint (X-Outpost-Signature: HMAC-SHA256 of the body).',
  slack: 'Posts to a Slack incoming webhook (https://hooks.slack.com/…).',
  teams: 'Posts a message card to a Microsoft Teams incoming webhook.',
};

function ChannelFormDialog({
  channel,
  onClose,
  onCreated,
}: {
  channel: NotificationChannel | null;
  onClose: () => void;
  onCreated: (created: ChannelCreated) => void;
}) {
  const [form, setForm] = useState<ChannelForm>(() => formOf(channel));
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveChannel();
  const set = <K extends keyof ChannelForm>(key: K, value: ChannelForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  async function submit() {
    const out = bodyOf(form);
    if ('errors' in out) {
      setErrors(out.errors);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: channel?.id ?? null, body: out.body });
      if (!channel) {
        onCreated(saved);
      }
      onClose();
    } catch (err) {
      setFailure(errorMessage(err, 'Could not save the channel'));
    }
  }

  const text = (
    key: keyof ChannelForm,
    label: string,
    props: { type?: string; placeholder?: string; hint?: string } = {},
  ) => (
    <Field label={label} htmlFor={`channel-${key}`} error={errors[key]} hint={props.hint}>
      <Input
        id={`channel-${key}`}
        type={props.type ?? 'text'}
        value={String(form[key])}
        placeholder={props.placeholder}
        autoComplete={props.type === 'password' ? 'new-password' : 'off'}
        onChange={(e) => set(key, e.target.value as never)}
      />
    </Field>
  );

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={channel ? `Edit ${channel.name}` : 'New notification channel'}
      size="md"
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={save.isPending} onClick={() => void submit()}>
            {channel ? 'Save' : 'Create channel'}
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
        <Field label="Kind" htmlFor="channel-kind" hint={HINTS[form.kind]}>
          <Select
            id="channel-kind"
            value={form.kind}
            disabled={channel !== null}
            onChange={(e) => set('kind', e.target.value as ChannelKind)}
          >
            {CHANNEL_KINDS.map((k) => (
              <option key={k} value={k}>
                {CHANNEL_KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        </Field>
        {text('name', 'Name', { placeholder: 'On-call team' })}
        {form.kind === 'email' ? (
          <EmailFields
            form={form}
            errors={errors}
            set={set}
            text={text}
            hasPassword={channel?.has_secret ?? false}
          />
        ) : (
          text('url', 'Webhook URL', { type: 'url', placeholder: 'https://' })
        )}
        {form.kind === 'webhook' &&
          text('secret', 'Signing secret', {
            type: 'password',
            hint: channel
              ? 'Leave blank to keep the current secret.'
              : 'Leave blank and Outpost makes one, shown once after you create the channel.',
          })}
        <Switch
          checked={form.enabled}
          onChange={(v) => set('enabled', v)}
          label="Enabled"
          description="A disabled channel sends nothing, tests included."
        />
        <DeliverySettings form={form} errors={errors} set={set} />
      </form>
    </Dialog>
  );
}

function EmailFields({
  form,
  errors,
  set,
  text,
  hasPassword,
}: {
  form: ChannelForm;
  errors: FormErrors;
  set: <K extends keyof ChannelForm>(key: K, value: ChannelForm[K]) => void;
  text: (
    key: keyof ChannelForm,
    label: string,
    props?: { type?: string; placeholder?: string; hint?: string },
  ) => React.ReactNode;
  hasPassword: boolean;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[1fr_7rem]">
        {text('smtp_host', 'SMTP server', { placeholder: 'smtp.example.com' })}
        {text('smtp_port', 'Port', { type: 'number' })}
      </div>
      <Field label="Security" htmlFor="channel-smtp_security">
        <Select
          id="channel-smtp_security"
          value={form.smtp_security}
          onChange={(e) => set('smtp_security', e.target.value as ChannelForm['smtp_security'])}
        >
          <option value="starttls">STARTTLS (port 587)</option>
          <option value="tls">TLS (port 465)</option>
          <option value="none">None (trusted network only)</option>
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {text('smtp_user', 'User name')}
        {text('smtp_password', 'Password', {
          type: 'password',
          hint: hasPassword ? 'Leave blank to keep the current password.' : undefined,
        })}
      </div>
      {text('from', 'From', { type: 'email', placeholder: 'outpost@example.com' })}
      <Field
        label="To"
        htmlFor="channel-to"
        error={errors.to}
        hint="Up to 20 addresses, separated by commas."
      >
        <Textarea id="channel-to" rows={2} value={form.to} onChange={(e) => set('to', e.target.value)} />
      </Field>
    </>
  );
}
