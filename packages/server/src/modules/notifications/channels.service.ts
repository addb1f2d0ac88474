import crypto from 'node:crypto';
import { CHANNEL_KIND_LABELS, channelMessages as messages } from '@outpost/contract/notification-channels';
import type {
  ChannelCreateBody,
  ChannelCreated,
  NotificationChannel,
  NotificationDelivery,
} from '@outpost/contract/notification-channels';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { conflict } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import {
  channelNameTaken,
  deleteChannel,
  insertChannel,
  listChannels,
  listDeliveries,
  updateChannel,
} from './notifications.queries';
import type { ChannelRow, ChannelValues, DeliveryRow, LastDelivery } from './notifications.queries';
import type { Outbox } from './outbox';
import { loadChannel, requireTenantAdmin } from './channel-access';
import { createChannelSends } from './channel-sends';

// Notification channels (docs/product/monitoring.md#notification-channels): administrators of the
// whole tenant (a site-limited administrator cannot, 403: a channel hears about every site) create,
// change, test and delete them; secrets are sealed before they are stored and never answered.

type Body = z.output<typeof ChannelCreateBody>;
const DELIVERY_LOG_LIMIT = 100;

export const toChannel = (row: ChannelRow, last: LastDelivery = null): NotificationChannel => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  enabled: row.enabled,
  config: row.config,
  has_secret: row.secret !== null,
  quiet_hours: row.quietHours ?? null,
  digest: row.digest ?? null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  last_delivery: last ? { status: last.status, at: last.at.toISOString() } : null,
});

export const toDelivery = (row: DeliveryRow): NotificationDelivery => ({
  id: row.id,
  channel_id: row.channelId ?? 0, // a channel's log holds only its own rows
  event: row.event,
  subject: (row.message as { subject?: string }).subject ?? '',
  status: row.status,
  attempts: row.attempts,
  last_code: row.lastCode,
  last_error: row.lastError,
  created_at: row.createdAt.toISOString(),
  next_attempt_at: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
  delivered_at: row.deliveredAt?.toISOString() ?? null,
  redelivery_of: row.redeliveryOf,
  digest_id: row.digestId,
});

/** The stored settings (no secret) and the secret to seal: undefined keeps the stored one. */
function split(body: Body): { config: Record<string, unknown>; secret: string | null | undefined } {
  if (body.kind === 'email') {
    const { smtp_password, ...config } = body.config;
    const secret = smtp_password === undefined ? undefined : smtp_password === '' ? null : smtp_password;
    return { config: { ...config, smtp_user: config.smtp_user || undefined }, secret };
  }
  if (body.kind === 'webhook') {
    return { config: { url: body.config.url }, secret: body.config.secret };
  }
  return { config: { url: body.config.url }, secret: undefined };
}

export function createChannelsService(deps: { db: Db; box: SecretBox; outbox: Outbox; wake: () => void }) {
  const { db, box, outbox } = deps;

  const load = (ctx: RequestContext, id: number) => loadChannel(db, ctx, id);

  async function checkName(ctx: RequestContext, name: string, exceptId?: number) {
    if (await channelNameTaken(db, ctx.tenantId, name, exceptId)) {
      throw conflict(messages.nameTaken, 'CHANNEL_NAME_TAKEN');
    }
  }

  return {
    async list(ctx: RequestContext): Promise<{ data: NotificationChannel[] }> {
      requireTenantAdmin(ctx);
      const rows = await listChannels(db, ctx.tenantId);
      return { data: rows.map((r) => toChannel(r.channel, r.last)) };
    },

    async get(ctx: RequestContext, id: number): Promise<NotificationChannel> {
      requireTenantAdmin(ctx);
      return toChannel(await load(ctx, id));
    },

    async create(ctx: RequestContext, body: Body): Promise<ChannelCreated> {
      requireTenantAdmin(ctx);
      await checkName(ctx, body.name);
      const { config, secret } = split(body);
      // a webhook without a secret of its own gets one, answered once
      const generated =
        body.kind === 'webhook' && !secret ? crypto.randomBytes(24).toString('base64url') : undefined;
      const plain = generated ?? secret ?? null;
      const values: ChannelValues = {
        name: body.name,
        kind: body.kind,
        enabled: body.enabled,
        config,
        secret: plain === null ? null : box.seal(plain),
        quietHours: body.quiet_hours ?? null,
        digest: body.digest ?? null,
      };
      const row = await db.transaction(async (tx) => {
        const created = await insertChannel(tx, ctx.tenantId, ctx.userId, values);
        await writeAudit(tx, ctx, {
          action: 'Create Notification Channel',
          resourceType: 'notification_channel',
          resourceId: created.id,
          details: `Created ${CHANNEL_KIND_LABELS[body.kind]} channel ${body.name}`,
          newValues: {
            name: body.name,
            kind: body.kind,
            enabled: body.enabled,
            config,
            quiet_hours: values.quietHours,
            digest: values.digest,
          },
        });
        return created;
      });
      return { ...toChannel(row), ...(generated && { signing_secret: generated }) };
    },

    async update(ctx: RequestContext, id: number, body: Body): Promise<NotificationChannel> {
      requireTenantAdmin(ctx);
      const old = await load(ctx, id);
      if (old.kind !== body.kind) {
        throw conflict(messages.kindFixed, 'CHANNEL_KIND_FIXED');
      }
      await checkName(ctx, body.name, id);
      const { config, secret } = split(body);
      const values: ChannelValues = {
        name: body.name,
        kind: body.kind,
        enabled: body.enabled,
        config,
        secret: secret === undefined ? old.secret : secret === null ? null : box.seal(secret),
        // absent: kept; null: removed
        quietHours: body.quiet_hours === undefined ? old.quietHours : body.quiet_hours,
        digest: body.digest === undefined ? old.digest : body.digest,
      };
      const row = await db.transaction(async (tx) => {
        const updated = await updateChannel(tx, id, values);
        await writeAudit(tx, ctx, {
          action: 'Update Notification Channel',
          resourceType: 'notification_channel',
          resourceId: id,
          details: `Updated ${CHANNEL_KIND_LABELS[body.kind]} channel ${body.name}${secret === undefined ? '' : ' (secret changed)'}`,
          oldValues: {
            name: old.name,
            enabled: old.enabled,
            config: old.config,
            quiet_hours: old.quietHours,
            digest: old.digest,
          },
          newValues: {
            name: body.name,
            enabled: body.enabled,
            config,
            quiet_hours: values.quietHours,
            digest: values.digest,
          },
        });
        return updated;
      });
      return toChannel(row);
    },

    async remove(ctx: RequestContext, id: number): Promise<{ id: number }> {
      requireTenantAdmin(ctx);
      const old = await load(ctx, id);
      await db.transaction(async (tx) => {
        await deleteChannel(tx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Notification Channel',
          resourceType: 'notification_channel',
          resourceId: id,
          details: `Deleted ${CHANNEL_KIND_LABELS[old.kind]} channel ${old.name}`,
          oldValues: { name: old.name, kind: old.kind, config: old.config },
        });
      });
      return { id };
    },

    async deliveries(ctx: RequestContext, id: number): Promise<{ data: NotificationDelivery[] }> {
      requireTenantAdmin(ctx);
      await load(ctx, id);
      const rows = await listDeliveries(db, ctx.tenantId, id, DELIVERY_LOG_LIMIT);
      return { data: rows.map(toDelivery) };
    },

    ...createChannelSends({ db, outbox, wake: deps.wake }),
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
