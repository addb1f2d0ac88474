import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { users } from './users';
import { webhookSubscriptions } from './webhooks';

/**
 * A notification channel of a tenant (docs/product/monitoring.md#notification-channels): its
 * settings in `config` without secrets, the secret (SMTP password, webhook signing secret)
 * encrypted in `secret` (lib/secret-box.ts). Written only by the notifications module.
 */
export const notificationChannels = pgTable(
  'notification_channels',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    kind: text().notNull().$type<'email' | 'webhook' | 'slack' | 'teams'>(),
    enabled: boolean().notNull().default(true),
    config: jsonb().notNull().$type<Record<string, unknown>>(),
    secret: text(),
    /** { start: 'HH:MM', end: 'HH:MM', time_zone } or null: messages wait for the end (critical ones do not) */
    quietHours: jsonb('quiet_hours').$type<{ start: string; end: string; time_zone: string } | null>(),
    /** { max_alerts, minutes } or null: past max_alerts in `minutes`, alerts go out as one digest */
    digest: jsonb().$type<{ max_alerts: number; minutes: number } | null>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notification_channels_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`)],
);

/**
 * The outbox and the delivery log in one (docs/product/monitoring.md#deliveries): one row per
 * message to one channel, written in the transaction of what it tells, then sent by whichever
 * instance claims it (FOR UPDATE SKIP LOCKED) and retried with backoff for 24 hours. `dedupe_key`
 * makes one occurrence one delivery per channel, whatever restarts in between.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** the channel told, or null for an event webhook's delivery (subscription_id) */
    channelId: integer('channel_id').references(() => notificationChannels.id, { onDelete: 'cascade' }),
    /** the event webhook subscription told (docs/product/webhooks.md), when channel_id is null */
    subscriptionId: integer('subscription_id').references(() => webhookSubscriptions.id, {
      onDelete: 'cascade',
    }),
    event: text().notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** { subject, text, severity?, link?, data? }: what every format is made from */
    message: jsonb().notNull().$type<Record<string, unknown>>(),
    status: text().notNull().default('pending').$type<'pending' | 'delivered' | 'failed' | 'digested'>(),
    attempts: integer().notNull().default(0),
    lastCode: integer('last_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    redeliveryOf: integer('redelivery_of'),
    /** the digest delivery this one was folded into (it is not sent on its own) */
    digestId: integer('digest_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_dedupe_idx').on(t.channelId, t.dedupeKey),
    index('notification_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('notification_deliveries_channel_idx').on(t.channelId, t.id),
    uniqueIndex('notification_deliveries_subscription_dedupe_idx').on(t.subscriptionId, t.dedupeKey),
    index('notification_deliveries_subscription_idx').on(t.subscriptionId, t.id),
    check(
      'notification_deliveries_one_destination',
      sql`(${t.channelId} is null) <> (${t.subscriptionId} is null)`,
    ),
  ],
);
