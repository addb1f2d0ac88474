import { bigint, date, index, integer, jsonb, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { devices } from './devices';

// Device activity rollups. activity_events is the log; these two tables are what the
// activity screens read, kept up to date in the same transaction as each event (never recomputed
// from the log on read), so the overview stays one grouped query at 100,000 devices.

/** Per device per UTC day: closed online and logged-in time (ms) and the sessions started. */
export const deviceActivityDaily = pgTable(
  'device_activity_daily',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** milliseconds online within the day (closed intervals only; the open one is in the state) */
    onlineMs: bigint('online_ms', { mode: 'number' }).notNull().default(0),
    /** milliseconds with at least one user signed in while online (the union of sessions) */
    loggedInMs: bigint('logged_in_ms', { mode: 'number' }).notNull().default(0),
    /** distinct sessions that signed in during the day */
    sessionCount: integer('session_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.day] }),
    index('device_activity_daily_tenant_day_idx').on(t.tenantId, t.day),
  ],
);

export type OpenActivitySession = {
  sessionId: string;
  userName: string;
  ipAddress: string | null;
  since: string;
};

/** The open intervals of one device: what a read adds up to now, and what the next event closes. */
export const deviceActivityState = pgTable('device_activity_state', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  onlineSince: timestamp('online_since', { withTimezone: true }),
  loggedInSince: timestamp('logged_in_since', { withTimezone: true }),
  sessions: jsonb().$type<OpenActivitySession[]>().notNull().default([]),
  /** the effective time of the last event: later events never go back before it */
  lastEventAt: timestamp('last_event_at', { withTimezone: true }),
  /** the UTC day of countedSessions: a session resumed after a reconnect that day counts once */
  countedDay: date('counted_day', { mode: 'string' }),
  countedSessions: jsonb('counted_sessions').$type<string[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
