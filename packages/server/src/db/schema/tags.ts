import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { devices } from './devices';

// docs/product/device-sets.md#tags. Free-form, coloured labels per tenant; a name is unique in a
// tenant regardless of case. Written by the tags module only.
export const tags = pgTable(
  'tags',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** one of the palette's colour names (contract tags.ts) */
    color: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_tenant_name_uq').on(t.tenantId, sql`lower(${t.name})`)],
);

// Which device carries which tag. tenant_id is kept on the row so a filter by tag walks one
// tenant-first index to its devices.
export const deviceTags = pgTable(
  'device_tags',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.tagId] }),
    index('device_tags_tenant_tag_idx').on(t.tenantId, t.tagId, t.deviceId),
  ],
);
