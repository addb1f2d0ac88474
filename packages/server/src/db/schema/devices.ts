import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type {
  DeviceStatus,
  HardwareInfo,
  InventoryNotReported,
  NetworkInfo,
  Service,
} from '@outpost/contract/devices';
import type { InventoryDigests, UserSession } from '@outpost/contract/agent-protocol';
import { tenants } from './tenants';
import { sites } from './sites';
import { enrollmentTokens } from './enrollment-tokens';

// docs/product/devices.md#device-fields. One row per enrolled agent. The list must stay fast at 100,000 devices in
// a database of 1,000,000: every list filter (status, site) has a tenant-first btree index, and
// search (hostname, ip, serial, joined in search_text) a tenant-first trigram index (pg_trgm and
// btree_gin, both in PostgreSQL's contrib and in PGlite). docs/product/administration.md#who-may-do-what "Counters and the
// device list at scale".
export const devices = pgTable(
  'devices',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'set null' }),
    deviceGuid: uuid('device_guid').notNull(),
    /** sha256 of the agent secret; the secret itself is never stored */
    secretHash: text('secret_hash').notNull(),
    hostname: text(),
    ipAddress: text('ip_address'),
    osType: text('os_type'),
    osVersion: text('os_version'),
    /** the CPU architecture the agent reports (x64, x86, arm64); null when unknown (older agents) */
    architecture: text(),
    status: text().$type<DeviceStatus>().notNull().default('offline'),
    faultMessage: text('fault_message'),
    lastSeen: timestamp('last_seen', { withTimezone: true }),
    agentVersion: text('agent_version'),
    serialNumber: text('serial_number'),
    /**
     * What the list's search matches: hostname, IP address and serial number in lower case, joined
     * by newlines (migration 0011). One precomputed string per row instead of three lower() and
     * pattern matches per row the search walks.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(coalesce("hostname", '') || chr(10) || coalesce("ip_address", '') || chr(10) || coalesce("serial_number", ''))`,
    ),
    machineId: text('machine_id'),
    manufacturer: text(),
    model: text(),
    hardwareInfo: jsonb('hardware_info').$type<HardwareInfo>(),
    networkInfo: jsonb('network_info').$type<NetworkInfo>(),
    services: jsonb().$type<Service[]>(),
    servicesUpdatedAt: timestamp('services_updated_at', { withTimezone: true }),
    softwareUpdatedAt: timestamp('software_updated_at', { withTimezone: true }),
    /**
     * When the device's first software inventory was stored: the titles first seen then are what
     * it came with, not software discovered on it (docs/architecture.md#database, the dashboard's
     * recently discovered software).
     */
    softwareBaselineAt: timestamp('software_baseline_at', { withTimezone: true }),
    lastInventoryUpdate: timestamp('last_inventory_update', { withTimezone: true }),
    /** the digest of each inventory part stored above, as the agent gave it (or the server's own) */
    inventoryDigests: jsonb('inventory_digests').$type<InventoryDigests>(),
    /**
     * The inventory parts the agent said it could not collect, with why: a part it sends again
     * leaves the list, a part named not reported replaces its entry (device-state.queries.ts).
     */
    notReported: jsonb('not_reported').$type<InventoryNotReported[]>().notNull().default([]),
    /** user sessions open on the device right now (status loggedin while non-empty) */
    sessions: jsonb().$type<UserSession[]>().notNull().default([]),
    /** the agent connection that holds the device; presence changes only apply to the current one */
    connectionId: text('connection_id'),
    enrollmentTokenId: integer('enrollment_token_id').references(() => enrollmentTokens.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_guid_uq').on(t.deviceGuid),
    index('devices_tenant_status_idx').on(t.tenantId, t.status),
    // a site's devices in the list's order (lower(hostname), id); migration 0011 adds INCLUDE
    // (status, hostname, os_type, search_text) by hand (drizzle-kit cannot express it): a site
    // filter, with or without a search, walks its page in order and counts its matches from this
    // index alone
    index('devices_tenant_site_idx').on(t.tenantId, t.siteId, sql`lower(${t.hostname})`, t.id),
    // the list's order (lower(hostname), id); migrations 0009 and 0011 add INCLUDE (hostname,
    // status, site_id, os_type, search_text), which drizzle-kit cannot express, so
    // a page's OFFSET and a search's walk in list order read this index alone (index-only) and
    // only the page's own rows are read from the table
    index('devices_tenant_hostname_idx').on(t.tenantId, sql`lower(${t.hostname})`, t.id),
    index('devices_tenant_ip_idx').on(t.tenantId, t.ipAddress),
    index('devices_tenant_serial_idx').on(t.tenantId, sql`lower(${t.serialNumber})`),
    index('devices_tenant_machine_idx').on(t.tenantId, t.machineId),
    index('devices_tenant_os_idx').on(t.tenantId, t.osType),
    // the dashboard's recent devices, in its order (last_seen desc nulls last, id desc)
    index('devices_tenant_last_seen_idx').on(t.tenantId, t.lastSeen.desc().nullsLast(), t.id.desc()),
    // substring search on hostname, IP and serial (case-insensitive, through search_text): a
    // trigram GIN index with the tenant first (btree_gin's int4 class; the extension is created by
    // migration 0009), so a term common to every tenant ('pc-') yields the tenant's candidates only
    index('devices_search_trgm_idx').using('gin', t.tenantId, sql`${t.searchText} gin_trgm_ops`),
    // the presence sweeper looks for connected devices whose last_seen went stale
    index('devices_presence_idx')
      .on(t.lastSeen)
      .where(sql`${t.status} <> 'offline'`),
  ],
);
