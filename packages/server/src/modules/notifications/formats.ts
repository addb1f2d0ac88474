import crypto from 'node:crypto';

// What each kind of channel receives (docs/product/monitoring.md#notification-channels), made from
// one message. The bodies do not depend on the attempt, so a retried webhook carries the same
// body, signature and delivery id and a receiver can recognise a repeat.

export type Severity = 'info' | 'warning' | 'critical';

/** What a delivery stores: every format is made from it. */
export type NotificationMessage = {
  subject: string;
  text: string;
  severity?: Severity;
  /** a link into the portal */
  link?: string;
  /** facts for machines (webhooks only) */
  data?: Record<string, unknown>;
};

export type DeliveryFacts = { id: number; event: string; createdAt: Date; tenantName: string };

export function webhookBody(message: NotificationMessage, d: DeliveryFacts): string {
  return JSON.stringify({
    delivery_id: d.id,
    event: d.event,
    tenant: d.tenantName,
    created_at: d.createdAt.toISOString(),
    severity: message.severity ?? 'info',
    subject: message.subject,
    text: message.text,
    link: message.link ?? null,
    data: message.data ?? {},
  });
}

/**
 * An event webhook's body (docs/product/webhooks.md#the-body): the event, when it happened and its
 * facts. Like a channel's, it does not depend on the attempt; only the timestamp header does.
 */
export function eventBody(message: Record<string, unknown>, d: DeliveryFacts): string {
  return JSON.stringify({
    delivery_id: d.id,
    event: d.event,
    tenant: d.tenantName,
    occurred_at: typeof message.occurred_at === 'string' ? message.occurred_at : d.createdAt.toISOString(),
    data: message.data ?? {},
  });
}

/** `sha256=` and the hex HMAC-SHA256 of the exact body, as the signature header carries it. */
export function signature(secret: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

const SEVERITY_MARK: Record<Severity, string> = { info: 'ℹ️', warning: '⚠️', critical: '🔴' };
const SEVERITY_COLOUR: Record<Severity, string> = { info: '2563EB', warning: 'D97706', critical: 'DC2626' };

/** Slack's incoming-webhook format: text in mrkdwn with the link. */
export function slackBody(message: NotificationMessage): string {
  const mark = SEVERITY_MARK[message.severity ?? 'info'];
  const link = message.link ? `\n<${message.link}|Open in Outpost>` : '';
  return JSON.stringify({
    text: `${mark} *${escapeSlack(message.subject)}*\n${escapeSlack(message.text)}${link}`,
  });
}

const escapeSlack = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Microsoft Teams' incoming-webhook format (a message card), coloured by severity. */
export function teamsBody(message: NotificationMessage): string {
  return JSON.stringify({
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: message.subject,
    themeColor: SEVERITY_COLOUR[message.severity ?? 'info'],
    title: message.subject,
    text: message.text,
    ...(message.link && {
      potentialAction: [
        { '@type': 'OpenUri', name: 'Open in Outpost', targets: [{ os: 'default', uri: message.link }] },
      ],
    }),
  });
}

/** The e-mail's subject and plain text. */
export function emailContent(message: NotificationMessage): { subject: string; text: string } {
  const link = message.link ? `\n\nOpen in Outpost: ${message.link}` : '';
  return { subject: `[Outpost] ${message.subject}`, text: `${message.text}${link}\n` };
}
