CREATE TABLE "device_metrics" (
	"id" text PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"request_count" bigint,
	"request_timestamp" bigint,
	"auth_method" text NOT NULL,
	"data" jsonb NOT NULL,
	"history" jsonb NOT NULL,
	"tokens_sent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_metrics_state" (
	"device_id" text PRIMARY KEY NOT NULL,
	"last_request_count" bigint,
	"last_request_timestamp" bigint,
	"last_received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_tokens" ADD COLUMN "time_divider" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_metrics" ADD CONSTRAINT "device_metrics_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_metrics_state" ADD CONSTRAINT "device_metrics_state_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_metrics_device_idx" ON "device_metrics" USING btree ("device_id","received_at");--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_time_divider_check" CHECK ("devices"."openpaygo_time_divider" IS NULL OR "devices"."openpaygo_time_divider" BETWEEN 1 AND 995);