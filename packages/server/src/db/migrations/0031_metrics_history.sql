CREATE TABLE "device_metric_minutes" (
	"device_id" integer NOT NULL,
	"minute" integer NOT NULL,
	"cpu" smallint NOT NULL,
	"cpu_max" smallint,
	"memory" smallint NOT NULL,
	"disk" smallint,
	CONSTRAINT "device_metric_minutes_device_id_minute_pk" PRIMARY KEY("device_id","minute")
);
--> statement-breakpoint
CREATE TABLE "device_metric_rollups" (
	"device_id" integer NOT NULL,
	"bucket" integer NOT NULL,
	"cpu" smallint NOT NULL,
	"cpu_max" smallint NOT NULL,
	"memory" smallint NOT NULL,
	"memory_max" smallint NOT NULL,
	"disk" smallint,
	CONSTRAINT "device_metric_rollups_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "device_metric_volumes" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"minute" integer NOT NULL,
	"volumes" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metric_rollup_state" (
	"id" smallint PRIMARY KEY NOT NULL,
	"rolled_until" integer NOT NULL,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_metric_minutes" ADD CONSTRAINT "device_metric_minutes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_metric_rollups" ADD CONSTRAINT "device_metric_rollups_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_metric_volumes" ADD CONSTRAINT "device_metric_volumes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_metric_minutes_minute_brin" ON "device_metric_minutes" USING brin ("minute");--> statement-breakpoint
CREATE INDEX "device_metric_rollups_bucket_brin" ON "device_metric_rollups" USING brin ("bucket");