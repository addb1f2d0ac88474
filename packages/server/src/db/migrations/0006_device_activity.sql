CREATE TABLE "device_activity_daily" (
	"device_id" integer NOT NULL,
	"day" date NOT NULL,
	"tenant_id" integer NOT NULL,
	"online_ms" bigint DEFAULT 0 NOT NULL,
	"logged_in_ms" bigint DEFAULT 0 NOT NULL,
	"session_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_activity_daily_device_id_day_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
CREATE TABLE "device_activity_state" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"online_since" timestamp with time zone,
	"logged_in_since" timestamp with time zone,
	"sessions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_event_at" timestamp with time zone,
	"counted_day" date,
	"counted_sessions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_activity_daily" ADD CONSTRAINT "device_activity_daily_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_activity_daily" ADD CONSTRAINT "device_activity_daily_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_activity_state" ADD CONSTRAINT "device_activity_state_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_activity_state" ADD CONSTRAINT "device_activity_state_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_activity_daily_tenant_day_idx" ON "device_activity_daily" USING btree ("tenant_id","day");