import nodemailer from 'nodemailer';
import { DELIVERY_HEADER, SIGNATURE_HEADER } from '@outpost/contract/notification-channels';
import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '@outpost/contract/webhooks';
import { webhookSignature } from '../../lib/webhook-signature';
import { emailContent, eventBody, signature, slackBody, teamsBody, webhookBody } from './formats';
import type { DeliveryFacts, NotificationMessage } from './formats';

// Sending one delivery to its channel (docs/product/monitoring.md#deliveries): an HTTP POST for
// webhooks, Slack and Teams (2xx is delivered), an SMTP submission for e-mail (accepted by the
// server is delivered). Every attempt is bounded in time; the outcome names the code and why.

export const SEND_TIMEOUT_MS = 10_000;

export type SendOutcome = { ok: boolean; code: number | null; error: string | null };

export type ChannelToSend = {
  kind: 'email' | 'webhook' | 'slack' | 'teams';
  config: Record<string, unknown>;
  /** the opened secret (SMTP password, signing secret), if any */
  secret: string | null;
};

export type EmailConfig = {
  smtp_host: string;
  smtp_port: number;
  smtp_security: 'none' | 'starttls' | 'tls';
  smtp_user?: string;
  from: string;
  to: string[];
};

export async function send(
  channel: ChannelToSend,
  message: NotificationMessage,
  facts: DeliveryFacts,
): Promise<SendOutcome> {
  switch (channel.kind) {
    case 'email':
      return sendEmail(channel.config as EmailConfig, channel.secret, message);
    case 'webhook': {
      const body = webhookBody(message, facts);
      return post(String(channel.config.url), body, {
        [DELIVERY_HEADER]: String(facts.id),
        'X-Outpost-Event': facts.event,
        ...(channel.secret && { [SIGNATURE_HEADER]: signature(channel.secret, body) }),
      });
    }
    case 'slack':
      return post(String(channel.config.url), slackBody(message), {});
    case 'teams':
      return post(String(channel.config.url), teamsBody(message), {});
  }
}

/**
 * One attempt of an event webhook's delivery (docs/product/webhooks.md#verifying-a-delivery): the
 * body is the delivery's, the timestamp is this attempt's send time, and both are signed.
 */
export async function sendEvent(
  target: { url: string; secret: string },
  message: Record<string, unknown>,
  facts: DeliveryFacts,
  nowMs: number,
): Promise<SendOutcome> {
  const body = eventBody(message, facts);
  const timestamp = Math.floor(nowMs / 1000);
  return post(target.url, body, {
    [WEBHOOK_DELIVERY_HEADER]: String(facts.id),
    [WEBHOOK_EVENT_HEADER]: facts.event,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(target.secret, timestamp, body),
  });
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<SendOutcome> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Outpost-Notifications/1', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok
      ? { ok: true, code: res.status, error: null }
      : {
          ok: false,
          code: res.status,
          error: `The endpoint answered ${res.status} ${res.statusText}`.trim(),
        };
  } catch (err) {
    return { ok: false, code: null, error: describe(err) };
  }
}

async function sendEmail(config: EmailConfig, password: string | null, message: NotificationMessage) {
  const transport = nodemailer.createTransport({
    host: config.smtp_host,
    port: config.smtp_port,
    secure: config.smtp_security === 'tls',
    requireTLS: config.smtp_security === 'starttls',
    ignoreTLS: config.smtp_security === 'none',
    ...(config.smtp_user && { auth: { user: config.smtp_user, pass: password ?? '' } }),
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  try {
    const { subject, text } = emailContent(message);
    const info = await transport.sendMail({ from: config.from, to: config.to, subject, text });
    const code = Number(/^(\d{3})/.exec(String(info.response))?.[1] ?? 250);
    return { ok: true, code, error: null };
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode ?? null;
    return { ok: false, code, error: describe(err) };
  } finally {
    transport.close();
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    // fetch reports "fetch failed" with the socket's error (or several, one per address) as its cause
    type Cause = { code?: string; message?: string; errors?: { code?: string }[] };
    const cause = (err as { cause?: Cause }).cause;
    if (err.name === 'TimeoutError') {
      return `No answer within ${SEND_TIMEOUT_MS / 1000} s`;
    }
    const code = cause?.code ?? cause?.errors?.[0]?.code;
    return code
      ? `${err.message} (${code})`
      : cause?.message
        ? `${err.message}: ${cause.message}`
        : err.message;
  }
  return String(err);
}
