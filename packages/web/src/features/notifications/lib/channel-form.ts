import { ChannelCreateBody } from '@outpost/contract/notification-channels';
import type { ChannelKind, NotificationChannel } from '@outpost/contract/notification-channels';

// The channel dialog's fields as typed, and the request body they make (checked by the contract's
// own schema, so the dialog says what the server would). docs/product/monitoring.md#notification-channels

export type ChannelForm = {
  kind: ChannelKind;
  name: string;
  enabled: boolean;
  url: string;
  /** webhook: a new signing secret; blank keeps (or on creation generates) one */
  secret: string;
  smtp_host: string;
  smtp_port: string;
  smtp_security: 'none' | 'starttls' | 'tls';
  smtp_user: string;
  /** blank keeps the stored password */
  smtp_password: string;
  from: string;
  /** addresses separated by commas, spaces or lines */
  to: string;
  /** docs/product/monitoring.md#quiet-hours-and-digests */
  has_quiet_hours: boolean;
  quiet_start: string;
  quiet_end: string;
  quiet_time_zone: string;
  has_digest: boolean;
  digest_max_alerts: string;
  digest_minutes: string;
};

/** The browser's time zone, the quiet hours' default. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export type FormErrors = Partial<Record<keyof ChannelForm, string>>;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export function formOf(channel: NotificationChannel | null): ChannelForm {
  const c = channel?.config ?? {};
  return {
    kind: channel?.kind ?? 'webhook',
    name: channel?.name ?? '',
    enabled: channel?.enabled ?? true,
    url: text(c.url),
    secret: '',
    smtp_host: text(c.smtp_host),
    smtp_port: typeof c.smtp_port === 'number' ? String(c.smtp_port) : '587',
    smtp_security: (c.smtp_security as ChannelForm['smtp_security'] | undefined) ?? 'starttls',
    smtp_user: text(c.smtp_user),
    smtp_password: '',
    from: text(c.from),
    to: Array.isArray(c.to) ? (c.to as string[]).join(', ') : '',
    has_quiet_hours: Boolean(channel?.quiet_hours),
    quiet_start: channel?.quiet_hours?.start ?? '22:00',
    quiet_end: channel?.quiet_hours?.end ?? '07:00',
    quiet_time_zone: channel?.quiet_hours?.time_zone ?? browserTimeZone(),
    has_digest: Boolean(channel?.digest),
    digest_max_alerts: String(channel?.digest?.max_alerts ?? 10),
    digest_minutes: String(channel?.digest?.minutes ?? 15),
  };
}

const count = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

function deliveryOf(f: ChannelForm) {
  return {
    quiet_hours: f.has_quiet_hours
      ? { start: f.quiet_start, end: f.quiet_end, time_zone: f.quiet_time_zone }
      : null,
    digest: f.has_digest
      ? { max_alerts: count(f.digest_max_alerts), minutes: count(f.digest_minutes) }
      : null,
  };
}

const DELIVERY_FIELDS: Record<string, keyof ChannelForm> = {
  'quiet_hours.start': 'quiet_start',
  'quiet_hours.end': 'quiet_end',
  'quiet_hours.time_zone': 'quiet_time_zone',
  'digest.max_alerts': 'digest_max_alerts',
  'digest.minutes': 'digest_minutes',
};

export const recipientsOf = (to: string) => to.split(/[\s,;]+/).filter(Boolean);

function configOf(f: ChannelForm): Record<string, unknown> {
  switch (f.kind) {
    case 'email':
      return {
        smtp_host: f.smtp_host,
        smtp_port: f.smtp_port.trim() === '' ? Number.NaN : Number(f.smtp_port),
        smtp_security: f.smtp_security,
        ...(f.smtp_user.trim() && { smtp_user: f.smtp_user.trim() }),
        ...(f.smtp_password !== '' && { smtp_password: f.smtp_password }),
        from: f.from,
        to: recipientsOf(f.to),
      };
    case 'webhook':
      return { url: f.url, ...(f.secret !== '' && { secret: f.secret }) };
    case 'slack':
    case 'teams':
      return { url: f.url };
  }
}

/** The body to send, or the first message for each field that is wrong. */
export function bodyOf(f: ChannelForm): { body: ChannelCreateBody } | { errors: FormErrors } {
  const parsed = ChannelCreateBody.safeParse({
    kind: f.kind,
    name: f.name,
    enabled: f.enabled,
    config: configOf(f),
    ...deliveryOf(f),
  });
  if (parsed.success) {
    return { body: parsed.data };
  }
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const delivery = DELIVERY_FIELDS[issue.path.slice(0, 2).join('.')];
    if (delivery) {
      errors[delivery] ??= issue.code === 'invalid_type' ? 'Enter a whole number' : issue.message;
      continue;
    }
    const key = String(
      issue.path[0] === 'config' ? (issue.path[1] ?? 'url') : issue.path[0],
    ) as keyof ChannelForm;
    const field = key in formOf(null) ? key : 'name';
    errors[field] ??=
      field === 'smtp_port' && issue.code === 'invalid_type' ? 'Port must be 1–65535' : issue.message;
  }
  return { errors };
}

/** Where a channel sends, in a few words: the recipients, or the URL's host. */
export function destinationOf(channel: NotificationChannel): string {
  const c = channel.config;
  if (channel.kind === 'email') {
    const to = Array.isArray(c.to) ? (c.to as string[]) : [];
    return to.length <= 2 ? to.join(', ') : `${to.slice(0, 2).join(', ')} +${to.length - 2}`;
  }
  try {
    const url = new URL(text(c.url));
    return `${url.host}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return text(c.url);
  }
}
