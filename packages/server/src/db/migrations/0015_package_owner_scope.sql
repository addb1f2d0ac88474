DROP INDEX "deployment_jobs_package_idx";--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD COLUMN "updated_by_name" text;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "package_version" text;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "package_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD CONSTRAINT "deployment_packages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD CONSTRAINT "deployment_packages_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_packages_site_idx" ON "deployment_packages" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "deployment_jobs_package_idx" ON "deployment_jobs" USING btree ("package_id","created_at");--> statement-breakpoint
-- Existing packages: the last change known is their creation; existing jobs took their copy when
-- they were created (their package version then is not known).
UPDATE "deployment_packages" SET "updated_by" = "created_by", "updated_by_name" = "created_by_name";--> statement-breakpoint
UPDATE "deployment_jobs" SET "package_updated_at" = "created_at";
