import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AgentCommand, AgentCommandKind, CommandStatus } from '@outpost/contract/agent-protocol';
import { tenants } from './tenants';
import { devices } from './devices';

// The database is the queue, the bus is the doorbell (docs/product/agent-protocol.md#commands): a command is a row first;
// the gateway pushes it to the connected agent and re-offers unfinished ones on every connect.
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: uuid().primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text().$type<AgentCommandKind>().notNull(),
    payload: jsonb().$type<AgentCommand>().notNull(),
    status: text().$type<CommandStatus>().notNull().default('pending'),
    result: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** unfinished commands past this time are failed instead of re-offered */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('device_commands_unfinished_idx')
      .on(t.deviceId, t.createdAt)
      .where(sql`${t.status} in ('pending', 'sent')`),
    index('device_commands_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);
