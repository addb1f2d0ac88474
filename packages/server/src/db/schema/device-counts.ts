import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';

// How many devices a tenant has per site, status and OS type: the device list's pagination total
// and the dashboard's counts read these few rows instead of counting the tenant's devices on
// every request (at 100,000 devices a count(*) was most of a list request's SQL).
//
// Kept by triggers on `devices` (migrations 0007_api_speed; the UPDATE trigger per row since
// 0040_device_counts_row_update, firing only when a counted key changes), so every writer
// (enrolment, the agent socket, the presence sweeper, deletes, site deletion, tenant deletion,
// a tenant move) keeps them exact in its own transaction. The triggers only ever INSERT deltas
// (+n, -n per key): an update of one shared row per key would be a lock that every status
// change of the tenant waits for, and a deadlock with transactions that lock the tenant row
// (seen in the deployments tests: enrolment against an agent going online). A count is the sum
// of its key's rows; `compactDeviceCounts` (every few seconds) folds each key's deltas into one
// row. site_id 0 stands for no site and os_type '' for no OS type. No foreign keys: the deltas
// of a deleted tenant's or site's devices bring its sums to 0 and compaction removes them.
export const deviceCounts = pgTable(
  'device_counts',
  {
    tenantId: integer('tenant_id').notNull(),
    siteId: integer('site_id').notNull(),
    status: text().notNull(),
    osType: text('os_type').notNull(),
    n: integer().notNull(),
  },
  (t) => [index('device_counts_key_idx').on(t.tenantId, t.siteId, t.status, t.osType)],
);
