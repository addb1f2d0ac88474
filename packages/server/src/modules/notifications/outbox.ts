import type { FastifyBaseLogger } from 'fastify';
import { DELIVERY_RETRY_HOURS, channelMessages } from '@outpost/contract/notification-channels';
import { webhookMessages } from '@outpost/contract/webhooks';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../lib/secret-box';
import type { NotificationMessage } from './formats';
import { claimDueDeliveries, enqueueDeliveries, recordAttempt } from './notifications.queries';
import type { AttemptOutcome, ClaimedDelivery, NewDelivery } from './notifications.queries';
import { send, sendEvent } from './senders';
import {
  channelDelivery,
  collectingDigest,
  composeDigests,
  DIGESTIBLE_EVENTS,
  foldIntoDigest,
  openDigest,
  recentAlertMessages,
} from './digest.queries';
import { planAlertMessage } from './quiet-hours';
import type { SendOutcome } from './senders';

// The notification outbox (docs/product/monitoring.md#deliveries). A delivery is a row written in
// the transaction of what it tells (an alert opened, a rollout halted, a test), so nothing is told
// that did not happen and nothing that happened is lost to a crash. Each pass claims the due rows
// (FOR UPDATE SKIP LOCKED, with a lease: several instances never send one attempt twice, and a row
// whose sender died is tried again), sends them, and records the outcome: delivered, or pending
// again after a backoff (30 s doubling up to an hour), or failed once it has been retried for
// 24 hours. An endpoint that is down delays a notification; it never loses it.

const UNREADABLE_SECRET =
  "The channel's secret cannot be read with this server's key (SESSION_SECRET changed): set it again";

/** Rows claimed per pass. */
export const OUTBOX_BATCH = 20;
/** How long a claimed row is this instance's before another may try it. */
export const CLAIM_LEASE_MS = 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

/** The wait before attempt n + 1 after n failed ones. */
export const retryDelayMs = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

/** What one attempt's outcome makes of the row. */
export function afterAttempt(
  row: Pick<ClaimedDelivery, 'attempts' | 'createdAt'>,
  sent: SendOutcome & { final?: boolean },
  now: number,
): AttemptOutcome {
  const at = new Date(now);
  if (sent.ok) {
    return { code: sent.code, error: null, status: 'delivered', nextAttemptAt: null, at };
  }
  const next = now + retryDelayMs(row.attempts + 1);
  const givenUp = sent.final || next - row.createdAt.getTime() > DELIVERY_RETRY_HOURS * 3600_000;
  return givenUp
    ? { code: sent.code, error: sent.error, status: 'failed', nextAttemptAt: null, at }
    : { code: sent.code, error: sent.error, status: 'pending', nextAttemptAt: new Date(next), at };
}

export type Outbox = ReturnType<typeof createOutbox>;

export function createOutbox(deps: {
  db: Db;
  box: SecretBox;
  now: () => number;
  log: FastifyBaseLogger;
  /** one send (the tests' seam); the real senders by default */
  sendOne?: typeof send;
}) {
  const { db, box, log } = deps;
  const sendOne = deps.sendOne ?? send;

  /** An event webhook's attempt (docs/product/webhooks.md#deliveries). */
  async function attemptEvent(
    row: ClaimedDelivery,
    subscription: NonNullable<ClaimedDelivery['subscription']>,
  ): Promise<SendOutcome & { final?: boolean }> {
    if (!subscription.enabled) {
      return { ok: false, code: null, error: webhookMessages.disabled, final: true };
    }
    const secret = box.open(subscription.secret);
    if (secret === null) {
      return { ok: false, code: null, error: UNREADABLE_SECRET, final: true };
    }
    const facts = { id: row.id, event: row.event, createdAt: row.createdAt, tenantName: row.tenantName };
    return sendEvent({ url: subscription.url, secret }, row.message, facts, deps.now());
  }

  async function attempt(row: ClaimedDelivery): Promise<void> {
    const channel = row.channel;
    let sent: SendOutcome & { final?: boolean };
    if (row.subscription || !channel) {
      sent = row.subscription
        ? await attemptEvent(row, row.subscription)
        : { ok: false, code: null, error: 'The delivery has no destination', final: true };
      await recordAttempt(db, row.id, afterAttempt(row, sent, deps.now()));
      if (!sent.ok) {
        log.warn(
          { deliveryId: row.id, subscriptionId: row.subscriptionId, code: sent.code, error: sent.error },
          'webhook event not delivered',
        );
      }
      return;
    }
    const secret = channel.secret === null ? null : box.open(channel.secret);
    if (!channel.enabled) {
      sent = { ok: false, code: null, error: channelMessages.disabled, final: true };
    } else if (channel.secret !== null && secret === null) {
      sent = {
        ok: false,
        code: null,
        error: UNREADABLE_SECRET,
        final: true,
      };
    } else {
      sent = await sendOne(
        { kind: channel.kind, config: channel.config, secret },
        row.message as NotificationMessage,
        { id: row.id, event: row.event, createdAt: row.createdAt, tenantName: row.tenantName },
      );
    }
    await recordAttempt(db, row.id, afterAttempt(row, sent, deps.now()));
    if (!sent.ok) {
      log.warn(
        { deliveryId: row.id, channelId: channel.id, code: sent.code, error: sent.error },
        'notification not delivered',
      );
    }
  }

  return {
    /** Queues one message to these channels in the caller's transaction; answers the new rows' ids. */
    enqueue(
      tx: Parameters<typeof enqueueDeliveries>[0],
      rows: (Omit<NewDelivery, 'message'> & { message: NotificationMessage })[],
    ) {
      return enqueueDeliveries(tx, rows, new Date(deps.now()));
    },
    /**
     * Queues alert messages (docs/product/monitoring.md#quiet-hours-and-digests): each goes out now,
     * or joins its channel's digest when the channel is in quiet hours (critical ones excepted) or
     * has sent its flood limit within the digest's minutes. Answers how many go out now.
     */
    async enqueueAlert(
      tx: Parameters<typeof enqueueDeliveries>[0],
      rows: (Omit<NewDelivery, 'message'> & { message: NotificationMessage })[],
    ): Promise<number> {
      const now = deps.now();
      const channels = new Map(
        (
          await channelDelivery(
            tx,
            rows.map((r) => r.channelId),
          )
        ).map((c) => [c.id, c]),
      );
      const direct: typeof rows = [];
      for (const row of rows) {
        const channel = channels.get(row.channelId);
        const digestible = (DIGESTIBLE_EVENTS as readonly string[]).includes(row.event);
        if (!channel || !digestible || (!channel.quietHours && !channel.digest)) {
          direct.push(row);
          continue;
        }
        const since = new Date(now - (channel.digest?.minutes ?? 0) * 60_000);
        const recent = channel.digest ? await recentAlertMessages(tx, channel.id, since) : 0;
        const plan = planAlertMessage(channel, row.message.severity, recent, now);
        if (plan.kind === 'now') {
          direct.push(row);
          continue;
        }
        const digestId =
          (await collectingDigest(tx, channel.id)) ??
          (await openDigest(tx, row.tenantId, channel.id, plan.sendAt, new Date(now)));
        await foldIntoDigest(tx, row, digestId);
      }
      await enqueueDeliveries(tx, direct, new Date(now));
      return direct.length;
    },
    /**
     * One pass: claims the due rows and sends them side by side, batch after batch while
     * `keepGoing` says so (a stopping server ends the pass after the batch in flight: a backlog
     * of unreachable addresses, 10 s a batch, held the server's close for minutes); answers how
     * many it claimed.
     */
    async pass(keepGoing: () => boolean = () => true): Promise<number> {
      let total = 0;
      for (;;) {
        const rows = await db.transaction(async (tx) => {
          const claimed = await claimDueDeliveries(tx, new Date(deps.now()), CLAIM_LEASE_MS, OUTBOX_BATCH);
          // a digest's message is written from what it holds now; later ones go to the next digest
          const digests = claimed.filter(
            (r) => r.event === 'digest' && !(r.message as { composed?: boolean }).composed,
          );
          const composed = await composeDigests(
            tx,
            digests.map((r) => r.id),
          );
          return claimed.map((r) => ({ ...r, message: composed.get(r.id) ?? r.message }));
        });
        await Promise.all(rows.map((r) => attempt(r)));
        total += rows.length;
        if (rows.length < OUTBOX_BATCH || !keepGoing()) {
          return total;
        }
      }
    },
  };
}
