import crypto from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from '@outpost/contract/webhooks';

// Event webhooks' signature (docs/product/webhooks.md#verifying-a-delivery): the sender signs
// `{timestamp}.{body}` with HMAC-SHA256 under the subscription's secret, the timestamp being the
// send time in whole seconds; a receiver recomputes it over the raw body and rejects a timestamp
// outside its window, so a captured request cannot be replayed later. This file is also the
// receiver's recipe: verifyWebhookSignature is what the documentation shows and the tests use.

/** `v1=` and the hex HMAC-SHA256 of `{timestamp}.{body}`, as X-Outpost-Signature carries it. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `v1=${mac}`;
}

export type VerifyResult = { ok: true } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * A receiver's check of one request: the X-Outpost-Timestamp and X-Outpost-Signature headers, the
 * raw body, the shared secret and its own clock (seconds). Rejects a timestamp more than
 * `toleranceSeconds` (5 minutes) away, then compares the signature in constant time.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: string;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (!input.timestamp || !/^\d{1,12}$/.test(input.timestamp) || !input.signature) {
    return { ok: false, reason: 'malformed' };
  }
  const timestamp = Number(input.timestamp);
  if (Math.abs(now - timestamp) > tolerance) {
    return { ok: false, reason: 'stale' };
  }
  const expected = Buffer.from(webhookSignature(input.secret, timestamp, input.body));
  // several signatures may be sent while a secret is rotated: any one that matches will do
  const isMatch = input.signature
    .split(',')
    .map((s) => Buffer.from(s.trim()))
    .some((given) => given.length === expected.length && crypto.timingSafeEqual(given, expected));
  return isMatch ? { ok: true } : { ok: false, reason: 'mismatch' };
}
