-- The device list's search at 1,000,000 devices (ARCHITECTURE §3): hostname, IP address and serial
-- number joined in lower case in one stored column, so a search walking the list's index matches
-- one precomputed string per entry (no lower() per row), and one trigram index replaces three.
DROP INDEX "devices_hostname_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_ip_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_serial_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_tenant_site_idx";--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce("hostname", '') || chr(10) || coalesce("ip_address", '') || chr(10) || coalesce("serial_number", ''))) STORED;--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin ("tenant_id","search_text" gin_trgm_ops);--> statement-breakpoint
-- INCLUDE (hand-written, as in 0009; drizzle-kit cannot express it). A site's devices in the
-- list's order, so a site filter (with or without a search) walks to its page and stops, instead
-- of reading the whole site and sorting it; search_text replaces ip_address and serial_number, the
-- columns the search read, in both indexes, so the walks stay index-only.
CREATE INDEX "devices_tenant_site_idx" ON "devices" USING btree ("tenant_id","site_id",lower("hostname"),"id") INCLUDE ("status","hostname","os_type","search_text");--> statement-breakpoint
DROP INDEX "devices_tenant_hostname_idx";--> statement-breakpoint
CREATE INDEX "devices_tenant_hostname_idx" ON "devices" USING btree ("tenant_id",lower("hostname"),"id") INCLUDE ("hostname","status","site_id","os_type","search_text");
