-- The device counters' UPDATE trigger, per row and only for the rows whose counted key changes
-- (hand-written; db/schema/device-counts.ts). The statement-level trigger of 0007 captured every
-- updated row whole, before and after, in its transition tables and joined the two: a heartbeat
-- batch (UPDATE … SET last_seen for thousands of devices, every few seconds) changes no key, yet
-- wrote its rows, with their inventory columns, to temporary files. At 36,000 connected agents
-- PostgreSQL spent both cores on it (bench/RESULTS.md, 2026-11-28). A row trigger's WHEN is
-- evaluated on the row before any trigger work: an update that leaves the key alone costs nothing.
-- Like the statement triggers it only inserts deltas, which compaction folds.
CREATE FUNCTION "device_counts_row_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_counts" ("tenant_id", "site_id", "status", "os_type", "n") VALUES
    (OLD."tenant_id", coalesce(OLD."site_id", 0), OLD."status", coalesce(OLD."os_type", ''), -1),
    (NEW."tenant_id", coalesce(NEW."site_id", 0), NEW."status", coalesce(NEW."os_type", ''), 1);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "devices_counts_update" ON "devices";--> statement-breakpoint
CREATE TRIGGER "devices_counts_update" AFTER UPDATE ON "devices" FOR EACH ROW
  WHEN ((OLD."tenant_id", coalesce(OLD."site_id", 0), OLD."status", coalesce(OLD."os_type", ''))
        IS DISTINCT FROM (NEW."tenant_id", coalesce(NEW."site_id", 0), NEW."status", coalesce(NEW."os_type", '')))
  EXECUTE FUNCTION "device_counts_row_moved"();
