-- Trigram indexes for substring search (pg_trgm ships with PostgreSQL contrib and PGlite).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "devices_tenant_last_seen_idx" ON "devices" USING btree ("tenant_id","last_seen");--> statement-breakpoint
CREATE INDEX "devices_hostname_trgm_idx" ON "devices" USING gin (lower("hostname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_ip_trgm_idx" ON "devices" USING gin ("ip_address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_serial_trgm_idx" ON "devices" USING gin (lower("serial_number") gin_trgm_ops);