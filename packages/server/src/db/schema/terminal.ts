import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { sites } from './sites';
import { tenants } from './tenants';
import { users } from './users';

// docs/product/remote-access.md#terminal. Written by the terminal module only: one row per
// session, from the browser's request to its end (end_reason null while it runs). The recording
// is an asciicast v2 file in the blob store under recording_key.
export const terminalSessions = pgTable(
  'terminal_sessions',
  {
    id: uuid().primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name'),
    deviceName: text('device_name'),
    shell: text().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
    endMessage: text('end_message'),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    bytesOut: bigint('bytes_out', { mode: 'number' }).notNull().default(0),
    recordingKey: text('recording_key'),
    recordingBytes: bigint('recording_bytes', { mode: 'number' }),
  },
  (t) => [
    index('terminal_sessions_tenant_started_idx').on(t.tenantId, t.startedAt),
    index('terminal_sessions_device_started_idx').on(t.deviceId, t.startedAt),
  ],
);
