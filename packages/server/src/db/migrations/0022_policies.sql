CREATE TABLE "policies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "policies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"target_type" text NOT NULL,
	"site_id" integer,
	"group_id" integer,
	"package_id" integer,
	"trigger" text NOT NULL,
	"schedule" jsonb,
	"enabled" boolean DEFAULT true NOT NULL,
	"active_since" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_by" integer,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_device_runs" (
	"policy_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"package_version" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"job_id" integer,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_device_runs_policy_id_device_id_package_version_pk" PRIMARY KEY("policy_id","device_id","package_version")
);
--> statement-breakpoint
CREATE TABLE "policy_runs" (
	"policy_id" integer NOT NULL,
	"zone" text NOT NULL,
	"occurrence_at" timestamp with time zone NOT NULL,
	"tenant_id" integer NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"devices" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "policy_runs_policy_id_zone_occurrence_at_pk" PRIMARY KEY("policy_id","zone","occurrence_at")
);
--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "policy_id" integer;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_package_id_deployment_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."deployment_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_runs" ADD CONSTRAINT "policy_device_runs_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_runs" ADD CONSTRAINT "policy_device_runs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_device_runs" ADD CONSTRAINT "policy_device_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_runs" ADD CONSTRAINT "policy_runs_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_runs" ADD CONSTRAINT "policy_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "policies_tenant_idx" ON "policies" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "policies_enabled_idx" ON "policies" USING btree ("trigger") WHERE "policies"."enabled";--> statement-breakpoint
CREATE INDEX "policy_device_runs_device_idx" ON "policy_device_runs" USING btree ("device_id");--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD CONSTRAINT "deployment_jobs_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_jobs_policy_idx" ON "deployment_jobs" USING btree ("policy_id","created_at");