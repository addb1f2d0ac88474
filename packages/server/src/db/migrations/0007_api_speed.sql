CREATE TABLE "device_counts" (
	"tenant_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"status" text NOT NULL,
	"os_type" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "devices_tenant_hostname_idx";--> statement-breakpoint
DROP INDEX "devices_tenant_last_seen_idx";--> statement-breakpoint
CREATE INDEX "device_counts_key_idx" ON "device_counts" USING btree ("tenant_id","site_id","status","os_type");--> statement-breakpoint
-- INCLUDE (hand-written: drizzle-kit cannot express it): the list's filter columns, so a deep
-- page's OFFSET is an index-only scan
CREATE INDEX "devices_tenant_hostname_idx" ON "devices" USING btree ("tenant_id",lower("hostname"),"id") INCLUDE ("hostname","status","site_id","os_type");--> statement-breakpoint
CREATE INDEX "devices_tenant_last_seen_idx" ON "devices" USING btree ("tenant_id","last_seen" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Per-tenant device counts kept with the rows (hand-written; see db/schema/device-counts.ts).
-- Statement-level triggers: one INSERT of deltas per statement whatever the number of rows. They
-- only insert (no row of device_counts is ever updated by them), so no writer waits for another.
CREATE FUNCTION "device_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "device_counts" ("tenant_id", "site_id", "status", "os_type", "n")
    SELECT "tenant_id", coalesce("site_id", 0), "status", coalesce("os_type", ''), count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "device_counts" ("tenant_id", "site_id", "status", "os_type", "n")
    SELECT "tenant_id", coalesce("site_id", 0), "status", coalesce("os_type", ''), -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4;
  ELSE
    -- most updates (heartbeats, inventories) change no key: then nothing is inserted
    INSERT INTO "device_counts" ("tenant_id", "site_id", "status", "os_type", "n")
    SELECT k."tenant_id", k."site_id", k."status", k."os_type", sum(k."d")::int
    FROM (
      SELECT n."tenant_id", coalesce(n."site_id", 0) AS "site_id", n."status", coalesce(n."os_type", '') AS "os_type", 1 AS "d"
      FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (n."tenant_id", coalesce(n."site_id", 0), n."status", coalesce(n."os_type", ''))
            IS DISTINCT FROM (o."tenant_id", coalesce(o."site_id", 0), o."status", coalesce(o."os_type", ''))
      UNION ALL
      SELECT o."tenant_id", coalesce(o."site_id", 0), o."status", coalesce(o."os_type", ''), -1
      FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (n."tenant_id", coalesce(n."site_id", 0), n."status", coalesce(n."os_type", ''))
            IS DISTINCT FROM (o."tenant_id", coalesce(o."site_id", 0), o."status", coalesce(o."os_type", ''))
    ) k
    GROUP BY 1, 2, 3, 4 HAVING sum(k."d") <> 0;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "device_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "device_counts";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_counts_insert" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "devices_counts_update" AFTER UPDATE ON "devices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "devices_counts_delete" AFTER DELETE ON "devices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "devices_counts_truncate" AFTER TRUNCATE ON "devices"
  FOR EACH STATEMENT EXECUTE FUNCTION "device_counts_truncate"();--> statement-breakpoint
-- the devices already there (the triggers exist first, and the migration holds its locks until
-- it commits, so no write falls between the two)
INSERT INTO "device_counts" ("tenant_id", "site_id", "status", "os_type", "n")
SELECT "tenant_id", coalesce("site_id", 0), "status", coalesce("os_type", ''), count(*)
FROM "devices" GROUP BY 1, 2, 3, 4;