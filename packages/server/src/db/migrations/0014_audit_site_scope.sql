-- The sites an audit entry is about (SECURITY.md R2-9): a site-limited administrator reads only
-- entries about their own sites; null is a tenant-wide entry, read by administrators of all sites.
ALTER TABLE "audit_logs" ADD COLUMN "site_ids" integer[];--> statement-breakpoint
-- Existing entries, where the record they are about still says which site: a device's site, a
-- site's own id, an enrolment token's site, a site-limited user's sites. Anything else stays tenant-wide (hidden from
-- site-limited administrators, the safe side).
UPDATE "audit_logs" a SET "site_ids" = ARRAY[d."site_id"]
  FROM "devices" d
  WHERE a."resource_type" = 'device' AND a."resource_id" ~ '^[0-9]{1,9}$'
    AND d."id" = a."resource_id"::int AND d."tenant_id" = a."tenant_id" AND d."site_id" IS NOT NULL;--> statement-breakpoint
UPDATE "audit_logs" a SET "site_ids" = ARRAY[s."id"]
  FROM "sites" s
  WHERE a."resource_type" = 'site' AND a."resource_id" ~ '^[0-9]{1,9}$'
    AND s."id" = a."resource_id"::int AND s."tenant_id" = a."tenant_id";--> statement-breakpoint
UPDATE "audit_logs" a SET "site_ids" = ARRAY[t."site_id"]
  FROM "enrollment_tokens" t
  WHERE a."resource_type" = 'enrollment_token' AND a."resource_id" ~ '^[0-9]{1,9}$'
    AND t."id" = a."resource_id"::int AND t."tenant_id" = a."tenant_id" AND t."site_id" IS NOT NULL;--> statement-breakpoint
UPDATE "audit_logs" a SET "site_ids" = (
    SELECT array_agg(us."site_id" ORDER BY us."site_id") FROM "user_sites" us WHERE us."user_id" = u."id"
  )
  FROM "users" u
  WHERE a."resource_type" = 'user' AND a."resource_id" ~ '^[0-9]{1,9}$'
    AND u."id" = a."resource_id"::int AND u."tenant_id" = a."tenant_id"
    AND u."site_access_type" = 'specific';
