ALTER TABLE "deployment_jobs" ADD COLUMN "kind" text DEFAULT 'package' NOT NULL;--> statement-breakpoint
ALTER TABLE "deployment_jobs" ADD COLUMN "agent_update" jsonb;