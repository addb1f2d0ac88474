CREATE TABLE "deployment_job_files" (
	"job_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	CONSTRAINT "deployment_job_files_job_id_file_id_pk" PRIMARY KEY("job_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "deployment_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deployment_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"package_id" integer,
	"package_name" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"steps" jsonb NOT NULL,
	"scheduled_at" timestamp with time zone,
	"dispatched_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"total_devices" integer DEFAULT 0 NOT NULL,
	"completed_devices" integer DEFAULT 0 NOT NULL,
	"failed_devices" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_step_logs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deployment_step_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"device_deployment_id" integer NOT NULL,
	"step_order" integer NOT NULL,
	"step_name" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"exit_code" integer,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"duration_ms" integer,
	"stdout_log" text DEFAULT '' NOT NULL,
	"stderr_log" text DEFAULT '' NOT NULL,
	"output" text,
	"error_message" text
);
--> statement-breakpoint
CREATE TABLE "device_deployments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_deployments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"job_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_id" integer,
	"site_id" integer,
	"device_guid" uuid,
	"hostname" text,
	"ip_address" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"command_id" uuid,
	"expires_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"error_message" text,
	"reboot_required" boolean DEFAULT false NOT NULL,
	"current_step_order" integer,
	"progress_seq" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_job_files" ADD CONSTRAINT "deployment_job_files_job_id_deployment_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."deployment_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_job_files" ADD CONSTRAINT "deployment_job_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD CONSTRAINT "deployment_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD CONSTRAINT "deployment_jobs_package_id_deployment_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."deployment_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD CONSTRAINT "deployment_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_step_logs" ADD CONSTRAINT "deployment_step_logs_device_deployment_id_device_deployments_id_fk" FOREIGN KEY ("device_deployment_id") REFERENCES "public"."device_deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD CONSTRAINT "device_deployments_job_id_deployment_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."deployment_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD CONSTRAINT "device_deployments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD CONSTRAINT "device_deployments_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_job_files_file_idx" ON "deployment_job_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "deployment_jobs_tenant_created_idx" ON "deployment_jobs" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "deployment_jobs_tenant_status_idx" ON "deployment_jobs" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "deployment_jobs_package_idx" ON "deployment_jobs" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "deployment_jobs_due_idx" ON "deployment_jobs" USING btree ("scheduled_at") WHERE "deployment_jobs"."status" = 'pending' and "deployment_jobs"."dispatched_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_step_logs_attempt_uq" ON "deployment_step_logs" USING btree ("device_deployment_id","step_order","attempt");--> statement-breakpoint
CREATE INDEX "device_deployments_job_idx" ON "device_deployments" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_deployments_command_uq" ON "device_deployments" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "device_deployments_device_idx" ON "device_deployments" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "device_deployments_active_expiry_idx" ON "device_deployments" USING btree ("expires_at") WHERE "device_deployments"."status" in ('pending', 'running');