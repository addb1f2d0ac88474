-- The device list at 1,000,000 devices (ARCHITECTURE §3 "Counters and the device list at scale").
-- btree_gin (hand-written: drizzle-kit does not create extensions) gives the int4 class that puts
-- the tenant first in the trigram indexes; PostgreSQL's contrib and PGlite both ship it.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "devices_hostname_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_ip_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_serial_trgm_idx";--> statement-breakpoint
CREATE INDEX "devices_hostname_trgm_idx" ON "devices" USING gin ("tenant_id",lower("hostname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_ip_trgm_idx" ON "devices" USING gin ("tenant_id","ip_address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_serial_trgm_idx" ON "devices" USING gin ("tenant_id",lower("serial_number") gin_trgm_ops);--> statement-breakpoint
-- INCLUDE (hand-written: drizzle-kit cannot express it; the key columns are the schema's). The
-- list's order with every column a filter or a search reads, so a page's OFFSET and a search's
-- walk in list order are index-only scans.
DROP INDEX "devices_tenant_hostname_idx";--> statement-breakpoint
CREATE INDEX "devices_tenant_hostname_idx" ON "devices" USING btree ("tenant_id",lower("hostname"),"id") INCLUDE ("hostname","status","site_id","os_type","ip_address","serial_number");--> statement-breakpoint
-- The same for a site filter: its matches are counted, and its page found, from this index alone.
DROP INDEX "devices_tenant_site_idx";--> statement-breakpoint
CREATE INDEX "devices_tenant_site_idx" ON "devices" USING btree ("tenant_id","site_id") INCLUDE ("id","status","hostname","ip_address","serial_number","os_type");
