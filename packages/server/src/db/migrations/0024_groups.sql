ALTER TABLE "device_group_members" DROP CONSTRAINT "device_group_members_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "group_name" text;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD CONSTRAINT "deployment_jobs_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;