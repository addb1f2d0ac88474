import type { FastifyBaseLogger } from 'fastify';
import { DELIVERY_RETRY_HOURS, channelMessages } from '@outpost/contract/notification-channels';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../lib/secret-box';
import type { NotificationMessage } from './formats';
import { claimDueDeliveries, enqueueDeliveries, recordAttempt } from './notifications.queries';
import type { AttemptOutcome, ClaimedDelivery, NewDelivery } from './notifications.queries';
import { send } from './senders';
import type { SendOutcome } from './senders';

// The notification outbox (docs/product/monitoring.md#deliveries). A delivery is a row written in
// the transaction of what it tells (an alert opened, a rollout halted, a test), so nothing is told
// that did not happen and nothing that happened is lost to a crash. Each pass claims the due rows
// (FOR UPDATE SKIP LOCKED, with a lease: several instances never send one attempt twice, and a row
// whose sender died is tried again), sends them, and records the outcome: delivered, or pending
// again after a backoff (30 s doubling up to an hour), or failed once it has been retried for
// 24 hours. An endpoint that is down delays a notification; it never loses it.

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

  async function attempt(row: ClaimedDelivery): Promise<void> {
    const channel = row.channel;
    let sent: SendOutcome & { final?: boolean };
    const secret = channel.secret === null ? null : box.open(channel.secret);
    if (!channel.enabled) {
      sent = { ok: false, code: null, error: channelMessages.disabled, final: true };
    } else if (channel.secret !== null && secret === null) {
      sent = {
        ok: false,
        code: null,
        error:
          "The channel's secret cannot be read with this server's key (SESSION_SECRET changed): set it again",
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
    /** One pass: claims the due rows and sends them side by side; answers how many it claimed. */
    async pass(): Promise<number> {
      let total = 0;
      for (;;) {
        const rows = await db.transaction((tx) =>
          claimDueDeliveries(tx, new Date(deps.now()), CLAIM_LEASE_MS, OUTBOX_BATCH),
        );
        await Promise.all(rows.map((r) => attempt(r)));
        total += rows.length;
        if (rows.length < OUTBOX_BATCH) {
          return total;
        }
      }
    },
  };
}
