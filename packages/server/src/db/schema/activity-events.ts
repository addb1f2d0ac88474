import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ActivityEventType } from '@outpost/contract/devices';
import { tenants } from './tenants';
import { devices } from './devices';

// docs/product/activity.md#fields. Presence (online, offline), user sessions (login, logout) and
// the agent's notices (memory_limit).
export const activityEvents = pgTable(
  'activity_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    eventType: text('event_type').$type<ActivityEventType>().notNull(),
    eventTimestamp: timestamp('event_timestamp', { withTimezone: true }).notNull().defaultNow(),
    userName: text('user_name'),
    ipAddress: text('ip_address'),
    sessionId: text('session_id'),
    /** a notice's text (memory_limit: what the agent reported); null for presence and sessions */
    detail: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_events_device_time_idx').on(t.deviceId, t.eventTimestamp),
    index('activity_events_tenant_time_idx').on(t.tenantId, t.eventTimestamp),
    // a login/logout resent after a reconnect is recorded once
    uniqueIndex('activity_events_session_uq').on(t.deviceId, t.eventType, t.sessionId, t.eventTimestamp),
  ],
);
