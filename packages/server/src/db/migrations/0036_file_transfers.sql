CREATE TABLE "file_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"site_id" integer,
	"user_id" integer,
	"user_name" text,
	"user_email" text,
	"user_role" text,
	"user_ip" text,
	"direction" text NOT NULL,
	"path" text NOT NULL,
	"size" bigint,
	"sha256" text,
	"max_bytes" bigint NOT NULL,
	"overwrite" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"blob_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "file_transfers" ADD CONSTRAINT "file_transfers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_transfers" ADD CONSTRAINT "file_transfers_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_transfers" ADD CONSTRAINT "file_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_transfers_tenant_idx" ON "file_transfers" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "file_transfers_created_idx" ON "file_transfers" USING btree ("created_at");