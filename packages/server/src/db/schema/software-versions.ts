import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

// docs/product/device-sets.md#fleet-software: how many devices of a site hold each title and
// version, so the fleet's software list reads these rows instead of grouping device_software
// (100,000 devices × ~100 titles) on every request. Kept exact by the devices module in the
// transaction of every change that moves a device_software row or a device's site
// (modules/devices/software-counts.queries.ts; docs/decisions/2026-11-26-fleet-software-counts.md).
// site_key 0 stands for no site (site ids start at 1), so the key has a unique index; no foreign
// key to sites: a deleted site's rows are folded into 0 in the site's own transaction.
export const softwareVersions = pgTable(
  'software_versions',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    siteKey: integer('site_key').notNull(),
    name: text().notNull(),
    /** '' when the platform reports none, as in device_software */
    version: text().notNull(),
    /** the publisher last reported with this title and version */
    publisher: text(),
    deviceCount: integer('device_count').notNull(),
  },
  (t) => [
    uniqueIndex('software_versions_key_uq').on(t.tenantId, t.siteKey, t.name, t.version),
    // the list in name order and its search
    index('software_versions_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`),
  ],
);
