CREATE TABLE "job_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"queue_job_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"slot" timestamp with time zone,
	"key" text,
	"attempt" integer NOT NULL,
	"state" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"instance" text NOT NULL,
	CONSTRAINT "job_runs_state_check" CHECK ("job_runs"."state" in ('running', 'completed', 'failed', 'interrupted')),
	CONSTRAINT "job_runs_trigger_check" CHECK ("job_runs"."trigger" in ('schedule', 'changed', 'start', 'demand'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_attempt_key" ON "job_runs" USING btree ("queue_job_id","attempt");--> statement-breakpoint
CREATE INDEX "job_runs_started_idx" ON "job_runs" USING btree ("started_at","id");--> statement-breakpoint
CREATE INDEX "job_runs_job_idx" ON "job_runs" USING btree ("job","started_at");