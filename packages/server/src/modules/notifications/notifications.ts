import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { createPeriodic } from '../../lib/periodic';
import { createSecretBox } from '../../lib/secret-box';
import { systemClock } from '../deployments/engine/clock';
import { createChannelsService } from './channels.service';
import type { Executor } from '../../lib/db';
import type { NotificationMessage } from './formats';
import { createOutbox } from './outbox';

// The notifications module as the app builds it (docs/product/monitoring.md#notification-channels):
// the secret box the channels' secrets are sealed with, the outbox, its timer (one per instance,
// started by app.ts once listening), and the channels' service, which wakes the timer when it
// queues a delivery so a test goes out at once.

export function createNotifications(deps: {
  db: Db;
  sessionSecret: Uint8Array;
  intervalMs: number;
  log: FastifyBaseLogger;
}) {
  const box = createSecretBox(deps.sessionSecret, 'notification channel secrets');
  const outbox = createOutbox({ db: deps.db, box, now: () => systemClock.now(), log: deps.log });
  let isStopping = false;
  const periodic = createPeriodic({
    name: 'notification outbox',
    pass: () => outbox.pass(() => !isStopping),
    clock: systemClock,
    intervalMs: deps.intervalMs,
    log: deps.log,
  });
  const notificationOutbox: typeof periodic = {
    ...periodic,
    start() {
      isStopping = false;
      periodic.start();
    },
    // the pass under way ends after its batch in flight
    stop() {
      isStopping = true;
      return periodic.stop();
    },
  };
  // a pass under way may have claimed before the new row was committed: one more after it
  const wake = () => void notificationOutbox.tick().then(() => notificationOutbox.tick());
  /**
   * Queues one message to these channels in the caller's transaction (an alert, by its routing),
   * each now or into its digest (quiet hours, flood limit); a key already queued to a channel is
   * not queued again.
   */
  async function tellChannels(
    tx: Executor,
    channelIds: number[],
    n: { tenantId: number; event: string; dedupeKey: string; message: NotificationMessage },
  ) {
    if (channelIds.length === 0) {
      return;
    }
    const now = await outbox.enqueueAlert(
      tx,
      channelIds.map((channelId) => ({ ...n, channelId })),
    );
    if (now > 0) {
      setTimeout(wake, 250).unref();
    }
  }
  return {
    outbox,
    /** the outbox's secret box and wake, shared with the event webhooks (modules/webhooks) */
    secretBox: box,
    wakeOutbox: wake,
    tellChannels,
    notificationOutbox,
    notificationChannels: createChannelsService({ db: deps.db, box, outbox, wake }),
  };
}

/** What the channels hear when a rollout halts by itself (docs/product/monitoring.md#what-channels-hear). */
export function rolloutHaltedMessage(h: {
  jobId: number;
  jobName: string;
  wave: number;
  reason: string;
  heldDevices: number;
}): NotificationMessage {
  const held = h.heldDevices === 1 ? '1 device of the wave is' : `${h.heldDevices} devices of the wave are`;
  return {
    subject: `Rollout halted: ${h.jobName}`,
    text: `${h.reason}. No further wave starts and ${held} held until someone resumes the rollout, skips its gate or aborts it.`,
    severity: 'critical',
    data: { job_id: h.jobId, wave: h.wave + 1, reason: h.reason, held_devices: h.heldDevices },
  };
}
