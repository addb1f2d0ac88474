import { z } from 'zod';
import { IdParam } from './input';

// Notification channels (docs/product/monitoring.md#notification-channels): where Outpost tells
// administrators what happened (an alert, a halted rollout, a test). E-mail through an SMTP
// server, signed JSON webhooks, and Slack and Microsoft Teams incoming webhooks. Secrets (the SMTP
// password, the webhook's signing secret) are stored encrypted and never answered after they are
// set; the answers say only whether one is set.

export const CHANNEL_KINDS = ['email', 'webhook', 'slack', 'teams'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = {
  email: 'E-mail',
  webhook: 'Webhook',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

export const CHANNEL_NAME_MAX = 100;
export const MAX_RECIPIENTS = 20;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 200;
/** The header that carries a webhook body's signature: `sha256=` and the hex HMAC-SHA256 of the body. */
export const SIGNATURE_HEADER = 'X-Outpost-Signature';
/** The header that names the delivery (the same on every attempt of one delivery). */
export const DELIVERY_HEADER = 'X-Outpost-Delivery';
/** How long a delivery is retried before it is given up (failed). */
export const DELIVERY_RETRY_HOURS = 24;

export const channelMessages = {
  channelNotFound: 'Notification channel not found',
  deliveryNotFound: 'Delivery not found',
  nameTaken: 'A notification channel with this name already exists',
  kindFixed: "A channel's kind cannot be changed",
  urlScheme: 'The URL must start with http:// or https://',
  urlLinkLocal: 'Link-local addresses (169.254.0.0/16, fe80::/10) are not allowed',
  slackUrl: 'A Slack incoming webhook URL starts with https://hooks.slack.com/',
  recipientsRequired: 'Add at least one recipient',
  tooManyRecipients: `At most ${MAX_RECIPIENTS} recipients`,
  secretLength: `The signing secret must be ${WEBHOOK_SECRET_MIN}–${WEBHOOK_SECRET_MAX} characters`,
  disabled: 'This channel is disabled: enable it to send',
  allSitesOnly: 'Only an administrator of all sites manages notification channels',
  testSubject: 'Outpost test notification',
  testText: (channel: string, who: string) =>
    `This is a test of the notification channel "${channel}", sent by ${who}. If you can read it, the channel works.`,
} as const;

const Name = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(CHANNEL_NAME_MAX, `Name must be ${CHANNEL_NAME_MAX} characters or less`);

const Url = z
  .string()
  .trim()
  .max(2000, 'The URL must be 2000 characters or less')
  .url('Enter a valid URL')
  .refine((u) => /^https?:\/\//i.test(u), channelMessages.urlScheme)
  .refine((u) => !isLinkLocal(u), channelMessages.urlLinkLocal);

/** 169.254.0.0/16 and fe80::/10: cloud metadata endpoints live there; a webhook never does. */
export function isLinkLocal(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  return /^169\.254\./.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}

const Email = z.string().trim().email('Enter a valid e-mail address').max(254);

export const EmailConfigInput = z.object({
  smtp_host: z.string().trim().min(1, 'SMTP host is required').max(253),
  smtp_port: z.number().int().min(1, 'Port must be 1–65535').max(65535, 'Port must be 1–65535'),
  /** none: plain; starttls: upgrade on the port (587); tls: TLS from the start (465) */
  smtp_security: z.enum(['none', 'starttls', 'tls']).default('starttls'),
  smtp_user: z.string().trim().max(254).optional(),
  /** write-only: omitted on an update keeps the stored one; '' removes it */
  smtp_password: z.string().max(500).optional(),
  from: Email,
  to: z
    .array(Email)
    .min(1, channelMessages.recipientsRequired)
    .max(MAX_RECIPIENTS, channelMessages.tooManyRecipients),
});

export const WebhookConfigInput = z.object({
  url: Url,
  /** write-only: omitted on creation, the server makes one and answers it once */
  secret: z
    .string()
    .min(WEBHOOK_SECRET_MIN, channelMessages.secretLength)
    .max(WEBHOOK_SECRET_MAX, channelMessages.secretLength)
    .optional(),
});

export const ChatConfigInput = z.object({ url: Url });

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM (24-hour), e.g. 22:00');

/**
 * Quiet hours (docs/product/monitoring.md#quiet-hours-and-digests): between start and end, in the
 * time zone, the channel's alert messages wait for the end and go out as one digest; critical
 * alerts still go out at once. start after end spans midnight.
 */
export const QuietHours = z
  .object({
    start: HHMM,
    end: HHMM,
    time_zone: z
      .string()
      .min(1, 'Choose a time zone')
      .max(64)
      .refine((tz) => isTimeZone(tz), 'Unknown time zone'),
  })
  .refine((q) => q.start !== q.end, {
    message: 'Quiet hours must start and end at different times',
    path: ['end'],
  });
export type QuietHours = z.infer<typeof QuietHours>;

/** A digest instead of a flood: past `max_alerts` alert messages in `minutes`, the rest go out as one. */
export const DigestSettings = z.object({
  max_alerts: z.number().int().min(1, 'At least 1 alert').max(1000, 'At most 1000 alerts'),
  minutes: z.number().int().min(1, 'At least 1 minute').max(1440, 'At most 1440 minutes (a day)'),
});
export type DigestSettings = z.infer<typeof DigestSettings>;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Settings every kind of channel has besides its own (absent on an update: kept). */
const Delivery = {
  quiet_hours: QuietHours.nullable().optional(),
  digest: DigestSettings.nullable().optional(),
};

export const ChannelCreateBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('email'),
    name: Name,
    enabled: z.boolean().default(true),
    config: EmailConfigInput,
    ...Delivery,
  }),
  z.object({
    kind: z.literal('webhook'),
    name: Name,
    enabled: z.boolean().default(true),
    config: WebhookConfigInput,
    ...Delivery,
  }),
  z.object({
    kind: z.literal('slack'),
    name: Name,
    enabled: z.boolean().default(true),
    config: ChatConfigInput.refine((c) => c.url.startsWith('https://hooks.slack.com/'), {
      message: channelMessages.slackUrl,
      path: ['url'],
    }),
    ...Delivery,
  }),
  z.object({
    kind: z.literal('teams'),
    name: Name,
    enabled: z.boolean().default(true),
    config: ChatConfigInput,
    ...Delivery,
  }),
]);
export type ChannelCreateBody = z.input<typeof ChannelCreateBody>;

/** An update names the kind it has (a kind never changes) and replaces name, enabled and config. */
export const ChannelUpdateBody = ChannelCreateBody;
export type ChannelUpdateBody = z.input<typeof ChannelUpdateBody>;

/** digested: folded into a digest delivery (`digest_id`), not sent on its own */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'digested'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * What every delivery of the outbox says, whichever destination it went to (a channel here, an
 * event webhook in webhooks.ts): its status, attempts, the last answer and when it is tried next.
 */
export const DeliveryCore = z.object({
  id: z.number().int(),
  /** test, or what it is about (an alert, rollout_halted, a webhook event, …) */
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** the last attempt's HTTP status (webhooks) or SMTP reply code */
  last_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** the delivery this one repeats (a redelivery) */
  redelivery_of: z.number().int().nullable(),
});
export type DeliveryCore = z.infer<typeof DeliveryCore>;

/** A destination's last delivery, as its list shows it. */
export const LastDelivery = z.object({ status: z.enum(DELIVERY_STATUSES), at: z.string() }).nullable();

/** A channel as answered: its settings without secrets, and whether each secret is set. */
export const NotificationChannel = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(CHANNEL_KINDS),
  enabled: z.boolean(),
  /** email: smtp_host, smtp_port, smtp_security, smtp_user, from, to; others: url */
  config: z.record(z.string(), z.unknown()),
  has_secret: z.boolean(),
  quiet_hours: QuietHours.nullable(),
  digest: DigestSettings.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** the last delivery's outcome, if any */
  last_delivery: LastDelivery,
});
export type NotificationChannel = z.infer<typeof NotificationChannel>;

/** The creation's answer: a generated webhook secret is answered here once and never again. */
export const ChannelCreated = NotificationChannel.extend({ signing_secret: z.string().optional() });
export type ChannelCreated = z.infer<typeof ChannelCreated>;

export const ChannelListResponse = z.object({ data: z.array(NotificationChannel) });

export const NotificationDelivery = DeliveryCore.extend({
  channel_id: z.number().int(),
  subject: z.string(),
  /** the digest this one went out in */
  digest_id: z.number().int().nullable(),
});
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export const DeliveryListResponse = z.object({ data: z.array(NotificationDelivery) });

export const SendResponse = z.object({ delivery_id: z.number().int() });

export const ChannelIdParams = z.object({ id: IdParam });
export const DeliveryIdParams = z.object({ id: IdParam, deliveryId: IdParam });
