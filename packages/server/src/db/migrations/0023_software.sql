CREATE TABLE "software_versions" (
	"tenant_id" integer NOT NULL,
	"site_key" integer NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"publisher" text,
	"device_count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "software_versions" ADD CONSTRAINT "software_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "software_versions_key_uq" ON "software_versions" USING btree ("tenant_id","site_key","name","version");--> statement-breakpoint
CREATE INDEX "software_versions_tenant_name_idx" ON "software_versions" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
-- Backfill (hand-written): the counts of the software already stored, so an existing database
-- starts exact (docs/decisions/2026-11-26-fleet-software-counts.md).
INSERT INTO "software_versions" ("tenant_id", "site_key", "name", "version", "publisher", "device_count")
SELECT s."tenant_id", coalesce(d."site_id", 0), s."name", s."version", max(s."publisher"), count(*)::int
FROM "device_software" s JOIN "devices" d ON d."id" = s."device_id"
GROUP BY s."tenant_id", coalesce(d."site_id", 0), s."name", s."version";
