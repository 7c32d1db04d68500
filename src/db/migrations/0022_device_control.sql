CREATE TABLE "device_command_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"command_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"provider" text NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"response" jsonb,
	CONSTRAINT "device_command_attempts_provider_check" CHECK ("device_command_attempts"."provider" in ('simulator', 'lock_api', 'openpaygo')),
	CONSTRAINT "device_command_attempts_outcome_check" CHECK ("device_command_attempts"."outcome" in ('pending', 'accepted', 'acknowledged', 'failed', 'timeout'))
);
--> statement-breakpoint
CREATE TABLE "device_control_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'simulator' NOT NULL,
	"lock_api_url" text,
	"lock_api_secret" text,
	"simulator_latency_ms" integer DEFAULT 200 NOT NULL,
	"simulator_failure_rate" double precision DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"retry_base_seconds" integer DEFAULT 30 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone,
	CONSTRAINT "device_control_settings_one_row" CHECK ("device_control_settings"."id" = 'default'),
	CONSTRAINT "device_control_settings_provider_check" CHECK ("device_control_settings"."provider" in ('simulator', 'lock_api')),
	CONSTRAINT "device_control_settings_ranges_check" CHECK ("device_control_settings"."simulator_failure_rate" BETWEEN 0 AND 1 AND "device_control_settings"."simulator_latency_ms" >= 0 AND "device_control_settings"."max_attempts" >= 1 AND "device_control_settings"."retry_base_seconds" >= 1)
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "device_command_attempts" ADD CONSTRAINT "device_command_attempts_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_control_settings" ADD CONSTRAINT "device_control_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_command_attempts_key" ON "device_command_attempts" USING btree ("command_id","attempt");--> statement-breakpoint
CREATE INDEX "device_commands_created_idx" ON "device_commands" USING btree ("created_at","id");--> statement-breakpoint
INSERT INTO "device_control_settings" ("id") VALUES ('default') ON CONFLICT DO NOTHING;
