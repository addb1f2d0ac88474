import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TransferDirection, TransferStatus } from '@outpost/contract/file-transfers';
import { devices } from './devices';
import { tenants } from './tenants';
import { users } from './users';

// docs/product/remote-access.md#file-transfer: one row per download or upload. Written by the
// file-transfers module only. The bytes sit in the blob store under `blob_key` while the transfer
// needs them (at most an hour, docs/decisions/2026-11-27-file-transfer.md).
export const fileTransfers = pgTable(
  'file_transfers',
  {
    id: uuid().primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** the device's site when the transfer began (audit and scope) */
    siteId: integer('site_id'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name'),
    userEmail: text('user_email'),
    userRole: text('user_role'),
    userIp: text('user_ip'),
    direction: text().$type<TransferDirection>().notNull(),
    path: text().notNull(),
    /** the bytes the server stored (hashed as they passed) */
    size: bigint({ mode: 'number' }),
    sha256: text(),
    maxBytes: bigint('max_bytes', { mode: 'number' }).notNull(),
    overwrite: boolean().notNull().default(false),
    status: text().$type<TransferStatus>().notNull(),
    error: text(),
    blobKey: text('blob_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('file_transfers_tenant_idx').on(t.tenantId),
    index('file_transfers_created_idx').on(t.createdAt),
  ],
);
