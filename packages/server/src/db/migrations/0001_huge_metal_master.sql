CREATE TABLE "enrollment_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enrollment_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"name" text,
	"site_id" integer,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"created_by" integer,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"use_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"site_id" integer,
	"device_guid" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"hostname" text,
	"ip_address" text,
	"os_type" text,
	"os_version" text,
	"status" text DEFAULT 'offline' NOT NULL,
	"fault_message" text,
	"last_seen" timestamp with time zone,
	"agent_version" text,
	"serial_number" text,
	"machine_id" text,
	"manufacturer" text,
	"model" text,
	"hardware_info" jsonb,
	"network_info" jsonb,
	"services" jsonb,
	"services_updated_at" timestamp with time zone,
	"software_updated_at" timestamp with time zone,
	"last_inventory_update" timestamp with time zone,
	"sessions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"connection_id" text,
	"enrollment_token_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_software" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_software_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"name" text NOT NULL,
	"display_name" text,
	"publisher" text,
	"version" text DEFAULT '' NOT NULL,
	"install_date" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"event_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"user_name" text,
	"ip_address" text,
	"session_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_commands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" jsonb,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "enrollment_tokens" ADD CONSTRAINT "enrollment_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_tokens" ADD CONSTRAINT "enrollment_tokens_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_tokens" ADD CONSTRAINT "enrollment_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_enrollment_token_id_enrollment_tokens_id_fk" FOREIGN KEY ("enrollment_token_id") REFERENCES "public"."enrollment_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_software" ADD CONSTRAINT "device_software_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_software" ADD CONSTRAINT "device_software_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_events" ADD CONSTRAINT "activity_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enrollment_tokens_hash_uq" ON "enrollment_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "enrollment_tokens_tenant_idx" ON "enrollment_tokens" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_guid_uq" ON "devices" USING btree ("device_guid");--> statement-breakpoint
CREATE INDEX "devices_tenant_status_idx" ON "devices" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "devices_tenant_site_idx" ON "devices" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "devices_tenant_hostname_idx" ON "devices" USING btree ("tenant_id",lower("hostname"));--> statement-breakpoint
CREATE INDEX "devices_tenant_ip_idx" ON "devices" USING btree ("tenant_id","ip_address");--> statement-breakpoint
CREATE INDEX "devices_tenant_serial_idx" ON "devices" USING btree ("tenant_id",lower("serial_number"));--> statement-breakpoint
CREATE INDEX "devices_tenant_machine_idx" ON "devices" USING btree ("tenant_id","machine_id");--> statement-breakpoint
CREATE INDEX "devices_tenant_os_idx" ON "devices" USING btree ("tenant_id","os_type");--> statement-breakpoint
CREATE INDEX "devices_presence_idx" ON "devices" USING btree ("last_seen") WHERE "devices"."status" <> 'offline';--> statement-breakpoint
CREATE UNIQUE INDEX "device_software_device_name_version_uq" ON "device_software" USING btree ("device_id","name","version");--> statement-breakpoint
CREATE INDEX "device_software_tenant_name_idx" ON "device_software" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE INDEX "device_software_tenant_display_idx" ON "device_software" USING btree ("tenant_id",lower("display_name"));--> statement-breakpoint
CREATE INDEX "activity_events_device_time_idx" ON "activity_events" USING btree ("device_id","event_timestamp");--> statement-breakpoint
CREATE INDEX "activity_events_tenant_time_idx" ON "activity_events" USING btree ("tenant_id","event_timestamp");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_events_session_uq" ON "activity_events" USING btree ("device_id","event_type","session_id","event_timestamp");--> statement-breakpoint
CREATE INDEX "device_commands_unfinished_idx" ON "device_commands" USING btree ("device_id","created_at") WHERE "device_commands"."status" in ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "device_commands_tenant_created_idx" ON "device_commands" USING btree ("tenant_id","created_at");