ALTER TABLE "devices" ADD COLUMN "software_baseline_at" timestamp with time zone;--> statement-breakpoint
-- Devices that already reported software: their first inventory is best known by the oldest
-- first-seen time of the titles they still have (docs/decisions/2026-11-26-discovered-software.md).
UPDATE "devices" d SET "software_baseline_at" = coalesce(
  (SELECT min(s."first_seen_at") FROM "device_software" s WHERE s."device_id" = d."id"),
  d."software_updated_at")
WHERE d."software_updated_at" IS NOT NULL;
