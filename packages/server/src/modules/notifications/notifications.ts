import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { createPeriodic } from '../../lib/periodic';
import { createSecretBox } from '../../lib/secret-box';
import { systemClock } from '../deployments/engine/clock';
import { createChannelsService } from './channels.service';
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
  const notificationOutbox = createPeriodic({
    name: 'notification outbox',
    pass: () => outbox.pass(),
    clock: systemClock,
    intervalMs: deps.intervalMs,
    log: deps.log,
  });
  // a pass under way may have claimed before the new row was committed: one more after it
  const wake = () => void notificationOutbox.tick().then(() => notificationOutbox.tick());
  return {
    outbox,
    notificationOutbox,
    notificationChannels: createChannelsService({ db: deps.db, box, outbox, wake }),
  };
}
