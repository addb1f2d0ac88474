import crypto from 'node:crypto';
import { WEBHOOK_DELIVERY_PAGE_SIZE, webhookMessages as messages } from '@outpost/contract/webhooks';
import type { Webhook, WebhookCreateBody, WebhookCreated, WebhookDelivery } from '@outpost/contract/webhooks';
import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { conflict, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { DeliveryRow, LastDelivery } from '../notifications/event-deliveries';
import { requireTenantAdmin } from './webhook-access';
import { createWebhookSends } from './webhook-sends';
import { lastEventDeliveries, listEventDeliveries } from '../notifications/event-deliveries';
import {
  deleteSubscription,
  getSubscription,
  insertSubscription,
  listSubscriptions,
  subscriptionNameTaken,
  updateSubscription,
} from './webhooks.queries';
import type { SubscriptionRow, SubscriptionValues } from './webhooks.queries';

// Event webhook subscriptions (docs/product/webhooks.md#subscriptions): administrators of all
// sites (an event tells about every site) create, change, test and delete them; the secret is set
// once (or made by the server and answered once) and never answered again. Deliveries go through
// the notification outbox: the same claims, retries, 24-hour limit and log as the channels'.

type Body = z.output<typeof WebhookCreateBody>;

const toWebhook = (row: SubscriptionRow, last: LastDelivery = null): Webhook => ({
  id: row.id,
  name: row.name,
  url: row.url,
  events: row.events as Webhook['events'],
  enabled: row.enabled,
  has_secret: true,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  last_delivery: last ? { status: last.status, at: last.at.toISOString() } : null,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhook_id: row.subscriptionId ?? 0,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  last_code: row.lastCode,
  last_error: row.lastError,
  created_at: row.createdAt.toISOString(),
  next_attempt_at: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
  delivered_at: row.deliveredAt?.toISOString() ?? null,
  redelivery_of: row.redeliveryOf,
});

export function createWebhooksService(deps: {
  db: Db;
  box: SecretBox;
  now: () => number;
  /** the subscriptions of a tenant changed (the event cache, on every instance) */
  changed: (tenantId: number) => void;
  /** a delivery was queued by hand: the outbox sends it at once */
  wake: () => void;
}) {
  const { db, box } = deps;

  async function load(ctx: RequestContext, id: number) {
    const row = await getSubscription(db, ctx.tenantId, id);
    if (!row) {
      throw notFound(messages.notFound, 'WEBHOOK_NOT_FOUND');
    }
    return row;
  }

  async function checkName(ctx: RequestContext, name: string, exceptId?: number) {
    if (await subscriptionNameTaken(db, ctx.tenantId, name, exceptId)) {
      throw conflict(messages.nameTaken, 'WEBHOOK_NAME_TAKEN');
    }
  }

  return {
    async list(ctx: RequestContext): Promise<{ data: Webhook[] }> {
      requireTenantAdmin(ctx);
      const rows = await listSubscriptions(db, ctx.tenantId);
      const last = await lastEventDeliveries(
        db,
        rows.map((r) => r.id),
      );
      return { data: rows.map((r) => toWebhook(r, last.get(r.id) ?? null)) };
    },

    async get(ctx: RequestContext, id: number): Promise<Webhook> {
      requireTenantAdmin(ctx);
      const row = await load(ctx, id);
      const last = await lastEventDeliveries(db, [id]);
      return toWebhook(row, last.get(id) ?? null);
    },

    async create(ctx: RequestContext, body: Body): Promise<WebhookCreated> {
      requireTenantAdmin(ctx);
      await checkName(ctx, body.name);
      // a subscription without a secret of its own gets one, answered once
      const generated = body.secret ? undefined : crypto.randomBytes(24).toString('base64url');
      const values: SubscriptionValues = {
        name: body.name,
        url: body.url,
        events: body.events,
        enabled: body.enabled,
        secret: box.seal(body.secret ?? generated!),
      };
      const row = await db.transaction(async (tx) => {
        const created = await insertSubscription(tx, ctx.tenantId, ctx.userId, values);
        await writeAudit(tx, ctx, {
          action: 'Create Webhook',
          resourceType: 'webhook',
          resourceId: created.id,
          details: `Created webhook ${body.name} (${body.events.length} events)`,
          newValues: { name: body.name, url: body.url, events: body.events, enabled: body.enabled },
        });
        return created;
      });
      deps.changed(ctx.tenantId);
      return { ...toWebhook(row), ...(generated && { signing_secret: generated }) };
    },

    async update(ctx: RequestContext, id: number, body: Body): Promise<Webhook> {
      requireTenantAdmin(ctx);
      const old = await load(ctx, id);
      await checkName(ctx, body.name, id);
      const values: SubscriptionValues = {
        name: body.name,
        url: body.url,
        events: body.events,
        enabled: body.enabled,
        secret: body.secret ? box.seal(body.secret) : old.secret,
      };
      const row = await db.transaction(async (tx) => {
        const updated = await updateSubscription(tx, id, values);
        await writeAudit(tx, ctx, {
          action: 'Update Webhook',
          resourceType: 'webhook',
          resourceId: id,
          details: `Updated webhook ${body.name}${body.secret ? ' (secret changed)' : ''}`,
          oldValues: { name: old.name, url: old.url, events: old.events, enabled: old.enabled },
          newValues: { name: body.name, url: body.url, events: body.events, enabled: body.enabled },
        });
        return updated;
      });
      deps.changed(ctx.tenantId);
      return toWebhook(row);
    },

    async remove(ctx: RequestContext, id: number): Promise<{ id: number }> {
      requireTenantAdmin(ctx);
      const old = await load(ctx, id);
      await db.transaction(async (tx) => {
        await deleteSubscription(tx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Webhook',
          resourceType: 'webhook',
          resourceId: id,
          details: `Deleted webhook ${old.name}`,
          oldValues: { name: old.name, url: old.url, events: old.events },
        });
      });
      deps.changed(ctx.tenantId);
      return { id };
    },

    async deliveries(ctx: RequestContext, id: number, page: number): Promise<ListData<WebhookDelivery>> {
      requireTenantAdmin(ctx);
      await load(ctx, id);
      const limit = WEBHOOK_DELIVERY_PAGE_SIZE;
      const { rows, total } = await listEventDeliveries(db, ctx.tenantId, id, {
        offset: (page - 1) * limit,
        limit,
      });
      return { data: rows.map(toDelivery), pagination: paginate(page, limit, total) };
    },

    ...createWebhookSends({ db, now: deps.now, wake: deps.wake, load }),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
