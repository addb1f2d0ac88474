import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { RemoteAccessSettings } from '@outpost/contract/remote-access';
import { tenants } from './tenants';
import { users } from './users';

// docs/product/remote-access.md#settings. Written by the remote-access module only. A tenant
// without a row has the defaults (contract DEFAULT_REMOTE_ACCESS).
export const tenantRemoteAccess = pgTable('tenant_remote_access', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  settings: jsonb().$type<RemoteAccessSettings>().notNull(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedByName: text('updated_by_name'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
