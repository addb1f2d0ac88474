// What the webhooks module uses of the notification outbox (docs/product/webhooks.md#deliveries):
// queueing event deliveries in the caller's transaction and reading a subscription's log. The
// rows are this module's (notification_deliveries); the webhooks module goes through here.

export {
  enqueueEventDeliveries,
  getEventDelivery,
  lastEventDeliveries,
  listEventDeliveries,
} from './webhook-deliveries.queries';
export type { NewEventDelivery } from './webhook-deliveries.queries';
export type { DeliveryRow, LastDelivery } from './notifications.queries';
