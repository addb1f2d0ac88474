ALTER TABLE "tenants" ADD COLUMN "storage_quota_bytes" bigint;--> statement-breakpoint
ALTER TABLE "deployment_step_logs" ADD COLUMN "stdout_cut_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deployment_step_logs" ADD COLUMN "stderr_cut_bytes" bigint DEFAULT 0 NOT NULL;