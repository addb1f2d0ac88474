CREATE TABLE "device_check_states" (
	"device_id" integer NOT NULL,
	"check_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"state" text NOT NULL,
	"output" text,
	"checked_at" timestamp with time zone NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "device_check_states_device_id_check_id_pk" PRIMARY KEY("device_id","check_id")
);
--> statement-breakpoint
CREATE TABLE "monitoring_checks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitoring_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"policy_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"config" jsonb NOT NULL,
	"interval_seconds" integer NOT NULL,
	"failures_before_alert" integer NOT NULL,
	"severity" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_policies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitoring_policies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"target_type" text NOT NULL,
	"site_id" integer,
	"group_id" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"offline_alert_minutes" integer,
	"offline_severity" text DEFAULT 'warning' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_route_channels" (
	"route_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	CONSTRAINT "alert_route_channels_route_id_channel_id_pk" PRIMARY KEY("route_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "alert_routes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_routes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"severities" jsonb NOT NULL,
	"conditions" jsonb NOT NULL,
	"target_type" text NOT NULL,
	"site_id" integer,
	"group_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"condition" text NOT NULL,
	"condition_key" text NOT NULL,
	"title" text NOT NULL,
	"detail" text,
	"severity" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"device_id" integer,
	"site_id" integer,
	"check_id" integer,
	"job_id" integer,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer,
	"acknowledged_by_name" text,
	"acknowledge_note" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"resolved_by_name" text,
	"resolve_note" text,
	"silenced" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_modes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_modes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"device_id" integer,
	"site_id" integer,
	"until" timestamp with time zone NOT NULL,
	"reason" text,
	"set_by" integer,
	"set_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_channels" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD COLUMN "digest" jsonb;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "digest_id" integer;--> statement-breakpoint
ALTER TABLE "device_check_states" ADD CONSTRAINT "device_check_states_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_check_states" ADD CONSTRAINT "device_check_states_check_id_monitoring_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."monitoring_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_check_states" ADD CONSTRAINT "device_check_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_checks" ADD CONSTRAINT "monitoring_checks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_checks" ADD CONSTRAINT "monitoring_checks_policy_id_monitoring_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."monitoring_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_policies" ADD CONSTRAINT "monitoring_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_policies" ADD CONSTRAINT "monitoring_policies_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_policies" ADD CONSTRAINT "monitoring_policies_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_policies" ADD CONSTRAINT "monitoring_policies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_route_channels" ADD CONSTRAINT "alert_route_channels_route_id_alert_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."alert_routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_route_channels" ADD CONSTRAINT "alert_route_channels_channel_id_notification_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_routes" ADD CONSTRAINT "alert_routes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_routes" ADD CONSTRAINT "alert_routes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_routes" ADD CONSTRAINT "alert_routes_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_modes" ADD CONSTRAINT "maintenance_modes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_modes" ADD CONSTRAINT "maintenance_modes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_modes" ADD CONSTRAINT "maintenance_modes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_modes" ADD CONSTRAINT "maintenance_modes_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_check_states_check_idx" ON "device_check_states" USING btree ("check_id");--> statement-breakpoint
CREATE INDEX "monitoring_checks_policy_idx" ON "monitoring_checks" USING btree ("policy_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_policies_tenant_name_idx" ON "monitoring_policies" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_open_idx" ON "alerts" USING btree ("tenant_id","condition_key") WHERE "alerts"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_tenant_state_idx" ON "alerts" USING btree ("tenant_id","state","last_seen_at");--> statement-breakpoint
CREATE INDEX "alerts_device_idx" ON "alerts" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_modes_device_idx" ON "maintenance_modes" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_modes_site_idx" ON "maintenance_modes" USING btree ("site_id");