import { z } from 'zod';
import { IdParam, PageParam } from './input';
import { listOf } from './envelope';
import { DeliveryCore, LastDelivery, channelMessages, isLinkLocal } from './notification-channels';

// Event webhooks (docs/product/webhooks.md): an organisation's subscriptions to events, each a URL
// that receives every event it names as a signed JSON POST, through the notification outbox.

/** Every event a subscription may name, in the order the editor lists them. */
export const WEBHOOK_EVENTS = [
  'device.enrolled',
  'device.online',
  'device.offline',
  'device.deleted',
  'deployment.created',
  'deployment.started',
  'deployment.completed',
  'deployment.failed',
  'deployment.cancelled',
  'alert.opened',
  'alert.resolved',
  'user.added',
  'user.removed',
  'audit.entry_written',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'device.enrolled': 'Device enrolled',
  'device.online': 'Device online',
  'device.offline': 'Device offline',
  'device.deleted': 'Device deleted',
  'deployment.created': 'Deployment created',
  'deployment.started': 'Deployment started',
  'deployment.completed': 'Deployment completed',
  'deployment.failed': 'Deployment failed',
  'deployment.cancelled': 'Deployment cancelled',
  'alert.opened': 'Alert opened',
  'alert.resolved': 'Alert resolved',
  'user.added': 'User added',
  'user.removed': 'User removed',
  'audit.entry_written': 'Audit entry written',
};

/** The event a "Send test" delivers (not subscribable). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The header with the send time, in whole seconds since 1970 (UTC), signed with the body. */
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Outpost-Timestamp';
/** The header with `v1=` and the hex HMAC-SHA256 of `{timestamp}.{body}` under the secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Outpost-Signature';
/** The header naming the delivery (the same on every attempt of one delivery). */
export const WEBHOOK_DELIVERY_HEADER = 'X-Outpost-Delivery';
/** The header naming the event. */
export const WEBHOOK_EVENT_HEADER = 'X-Outpost-Event';
/** A receiver rejects a timestamp further than this from its own clock (replay window). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const WEBHOOK_NAME_MAX = 100;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 200;
export const WEBHOOK_DELIVERY_PAGE_SIZE = 25;

export const webhookMessages = {
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  nameTaken: 'A webhook with this name already exists',
  eventsRequired: 'Choose at least one event',
  unknownEvent: 'Unknown event',
  secretLength: `The signing secret must be ${WEBHOOK_SECRET_MIN}–${WEBHOOK_SECRET_MAX} characters`,
  disabled: 'This webhook is disabled: enable it to send',
  allSitesOnly: 'Only an administrator of all sites manages webhooks',
  testSubject: 'Outpost test event',
} as const;

const Url = z
  .string()
  .trim()
  .max(2000, 'The URL must be 2000 characters or less')
  .url('Enter a valid URL')
  .refine((u) => /^https?:\/\//i.test(u), channelMessages.urlScheme)
  .refine((u) => !isLinkLocal(u), channelMessages.urlLinkLocal);

const Events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: webhookMessages.unknownEvent }))
  .min(1, webhookMessages.eventsRequired)
  .max(WEBHOOK_EVENTS.length)
  .transform((list) => WEBHOOK_EVENTS.filter((e) => list.includes(e)));

const Secret = z
  .string()
  .min(WEBHOOK_SECRET_MIN, webhookMessages.secretLength)
  .max(WEBHOOK_SECRET_MAX, webhookMessages.secretLength);

export const WebhookCreateBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(WEBHOOK_NAME_MAX, `Name must be ${WEBHOOK_NAME_MAX} characters or less`),
  url: Url,
  events: Events,
  enabled: z.boolean().default(true),
  /** write-only: omitted, the server makes one and answers it once (signing_secret) */
  secret: Secret.optional(),
});
export type WebhookCreateBody = z.input<typeof WebhookCreateBody>;

/** An update replaces name, url, events and enabled; a secret given replaces the stored one. */
export const WebhookUpdateBody = WebhookCreateBody;
export type WebhookUpdateBody = z.input<typeof WebhookUpdateBody>;

export const Webhook = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  has_secret: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  last_delivery: LastDelivery,
});
export type Webhook = z.infer<typeof Webhook>;

/** The creation's answer: a generated secret is answered here once and never again. */
export const WebhookCreated = Webhook.extend({ signing_secret: z.string().optional() });
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WebhookListResponse = z.object({ data: z.array(Webhook) });

export const WebhookDelivery = DeliveryCore.extend({ webhook_id: z.number().int() });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({ page: PageParam });
export type WebhookDeliveryQuery = z.input<typeof WebhookDeliveryQuery>;
export const WebhookDeliveryListResponse = listOf(WebhookDelivery);

export const WebhookSendResponse = z.object({ delivery_id: z.number().int() });
export const WebhookIdParams = z.object({ id: IdParam });
export const WebhookDeliveryIdParams = z.object({ id: IdParam, deliveryId: IdParam });
