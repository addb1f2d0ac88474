CREATE TABLE "deployment_waves" (
	"job_id" integer NOT NULL,
	"wave_index" integer NOT NULL,
	"name" text NOT NULL,
	"group_id" integer,
	"percent" integer,
	"min_finished_percent" integer NOT NULL,
	"min_success_percent" integer NOT NULL,
	"soak_minutes" integer DEFAULT 0 NOT NULL,
	"total_devices" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"gate_met_at" timestamp with time zone,
	"soak_until" timestamp with time zone,
	"passed_at" timestamp with time zone,
	"halted_at" timestamp with time zone,
	"gate_skipped_reason" text,
	"gate_skipped_by" integer,
	"gate_skipped_by_name" text,
	CONSTRAINT "deployment_waves_job_id_wave_index_pk" PRIMARY KEY("job_id","wave_index")
);
--> statement-breakpoint
CREATE TABLE "maintenance_windows" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_windows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"site_id" integer,
	"group_id" integer,
	"name" text NOT NULL,
	"days" integer[] NOT NULL,
	"start_minute" integer NOT NULL,
	"duration_minutes" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "rollout" jsonb;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "rollout_state" text;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "current_wave" integer;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "rollout_state_reason" text;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "rollout_state_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "only_in_windows" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deployment_step_logs" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD COLUMN "wave_index" integer;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD COLUMN "hold" text;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD COLUMN "hold_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD COLUMN "hold_note" text;--> statement-breakpoint
ALTER TABLE "device_deployments" ADD COLUMN "resume_step_order" integer;--> statement-breakpoint
ALTER TABLE "deployment_waves" ADD CONSTRAINT "deployment_waves_job_id_deployment_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."deployment_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_waves" ADD CONSTRAINT "deployment_waves_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_waves" ADD CONSTRAINT "deployment_waves_gate_skipped_by_users_id_fk" FOREIGN KEY ("gate_skipped_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_windows_site_idx" ON "maintenance_windows" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "maintenance_windows_group_idx" ON "maintenance_windows" USING btree ("tenant_id","group_id");--> statement-breakpoint
CREATE INDEX "device_deployments_job_wave_idx" ON "device_deployments" USING btree ("job_id","wave_index");