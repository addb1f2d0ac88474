import type { Db } from '../../db/client';
import type { Bus } from '../../live/bus';
import { setEventSink } from '../../lib/events';
import type { SecretBox } from '../../lib/secret-box';
import { systemClock } from '../deployments/engine/clock';
import { createWebhookEvents } from './webhook-events';
import { createWebhooksService } from './webhooks.service';

// The webhooks module as the app builds it (docs/product/webhooks.md): the event sink every
// module's emitEvent reaches (lib/events.ts), its subscription cache forgotten on every instance
// when a tenant's subscriptions change (the bus), and the subscriptions' service. Deliveries are
// the notification outbox's: its secret box, its timer and its wake.

export function createWebhooks(deps: { db: Db; bus: Bus; box: SecretBox; wake: () => void }) {
  const now = () => systemClock.now();
  const webhookEvents = createWebhookEvents({ now });
  setEventSink(webhookEvents.sink);
  deps.bus.subscribe('webhooks.changed', ({ tenantId }) => webhookEvents.invalidate(tenantId));
  const changed = (tenantId: number) => {
    webhookEvents.invalidate(tenantId);
    void deps.bus.publish('webhooks.changed', { tenantId });
  };
  return {
    webhookEvents,
    webhooks: createWebhooksService({ db: deps.db, box: deps.box, now, changed, wake: deps.wake }),
  };
}
