CREATE TABLE "files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"original_filename" text NOT NULL,
	"content_type" text,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_packages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deployment_packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"target_os" text DEFAULT 'windows' NOT NULL,
	"os_version_requirement" text,
	"architecture" text DEFAULT 'x64' NOT NULL,
	"package_version" text DEFAULT '1.0.0' NOT NULL,
	"is_template" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_step_files" (
	"step_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	CONSTRAINT "package_step_files_step_id_file_id_pk" PRIMARY KEY("step_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "package_steps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "package_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"package_id" integer NOT NULL,
	"step_order" integer NOT NULL,
	"step_name" text NOT NULL,
	"step_type" text NOT NULL,
	"step_details" jsonb NOT NULL,
	"fail_deployment_on_error" boolean DEFAULT true NOT NULL,
	"timeout_seconds" integer DEFAULT 300 NOT NULL,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD CONSTRAINT "deployment_packages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_packages" ADD CONSTRAINT "deployment_packages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_step_files" ADD CONSTRAINT "package_step_files_step_id_package_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."package_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_step_files" ADD CONSTRAINT "package_step_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_steps" ADD CONSTRAINT "package_steps_package_id_deployment_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."deployment_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_storage_key_uq" ON "files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "files_tenant_idx" ON "files" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "files_tenant_sha256_idx" ON "files" USING btree ("tenant_id","sha256");--> statement-breakpoint
CREATE INDEX "deployment_packages_tenant_created_idx" ON "deployment_packages" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "package_step_files_file_idx" ON "package_step_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "package_steps_package_order_idx" ON "package_steps" USING btree ("package_id","step_order");