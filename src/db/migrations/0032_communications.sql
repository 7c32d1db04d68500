CREATE TABLE "bulk_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"segment_id" text,
	"filter" jsonb NOT NULL,
	"template_key" text NOT NULL,
	"channel" text NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"rate_per_minute" integer NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"excluded_consent" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queued_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "bulk_sends_status_check" CHECK ("bulk_sends"."status" in ('scheduled', 'queued', 'cancelled')),
	CONSTRAINT "bulk_sends_rate_check" CHECK ("bulk_sends"."rate_per_minute" >= 1)
);
--> statement-breakpoint
CREATE TABLE "conversation_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"conversation_id" text NOT NULL,
	"direction" text NOT NULL,
	"author" text NOT NULL,
	"channel" text NOT NULL,
	"body" text NOT NULL,
	"intent" text,
	"provider_message_id" text,
	"message_id" text,
	"user_id" text,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_messages_direction_check" CHECK ("conversation_messages"."direction" in ('in', 'out')),
	CONSTRAINT "conversation_messages_author_check" CHECK ("conversation_messages"."author" in ('customer', 'assistant', 'staff', 'system')),
	CONSTRAINT "conversation_messages_channel_check" CHECK ("conversation_messages"."channel" in ('sms', 'whatsapp', 'portal'))
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"customer_id" text,
	"channel" text NOT NULL,
	"mode" text DEFAULT 'assistant' NOT NULL,
	"taken_over_by" text,
	"verified_until" timestamp with time zone,
	"pending" text,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_mode_check" CHECK ("conversations"."mode" in ('assistant', 'staff')),
	CONSTRAINT "conversations_channel_check" CHECK ("conversations"."channel" in ('sms', 'whatsapp', 'portal'))
);
--> statement-breakpoint
CREATE TABLE "messaging_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"sms_provider" text DEFAULT 'simulator' NOT NULL,
	"sms_url" text,
	"sms_username" text,
	"sms_api_key" text,
	"sms_sender_id" text,
	"sms_cost_per_segment" bigint DEFAULT 0 NOT NULL,
	"sms_rate_per_second" integer DEFAULT 50 NOT NULL,
	"whatsapp_provider" text DEFAULT 'simulator' NOT NULL,
	"whatsapp_api_url" text,
	"whatsapp_phone_number_id" text,
	"whatsapp_access_token" text,
	"whatsapp_app_secret" text,
	"whatsapp_verify_token" text,
	"whatsapp_rate_per_second" integer DEFAULT 50 NOT NULL,
	"email_provider" text DEFAULT 'simulator' NOT NULL,
	"smtp_host" text,
	"smtp_port" integer,
	"smtp_secure" text,
	"smtp_user" text,
	"smtp_password" text,
	"email_from" text,
	"email_rate_per_second" integer DEFAULT 10 NOT NULL,
	"simulator_failure_rate" double precision DEFAULT 0 NOT NULL,
	"ai_base_url" text,
	"ai_api_key" text,
	"ai_model" text,
	"updated_by" text,
	"updated_at" timestamp with time zone,
	CONSTRAINT "messaging_settings_one_row" CHECK ("messaging_settings"."id" = 'default'),
	CONSTRAINT "messaging_settings_sms_check" CHECK ("messaging_settings"."sms_provider" in ('simulator', 'http')),
	CONSTRAINT "messaging_settings_whatsapp_check" CHECK ("messaging_settings"."whatsapp_provider" in ('simulator', 'cloud')),
	CONSTRAINT "messaging_settings_email_check" CHECK ("messaging_settings"."email_provider" in ('simulator', 'smtp')),
	CONSTRAINT "messaging_settings_ranges_check" CHECK ("messaging_settings"."simulator_failure_rate" BETWEEN 0 AND 1 AND "messaging_settings"."sms_rate_per_second" >= 1 AND "messaging_settings"."whatsapp_rate_per_second" >= 1 AND "messaging_settings"."email_rate_per_second" >= 1 AND "messaging_settings"."sms_cost_per_segment" >= 0)
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"filter" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"detail" text,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" text,
	"customer_id" text,
	"contract_id" text,
	"conversation_id" text,
	"source" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"done_by" text,
	CONSTRAINT "staff_tasks_status_check" CHECK ("staff_tasks"."status" in ('open', 'done'))
);
--> statement-breakpoint
CREATE TABLE "message_template_versions" (
	"key" text NOT NULL,
	"channel" text NOT NULL,
	"language" text NOT NULL,
	"version" integer NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_template_versions_key_channel_language_version_pk" PRIMARY KEY("key","channel","language","version")
);
--> statement-breakpoint
ALTER TABLE "message_templates" DROP CONSTRAINT "message_templates_key_check";--> statement-breakpoint
ALTER TABLE "message_templates" DROP CONSTRAINT "message_templates_channel_check";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_template_check";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_channel_check";--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "customer_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "consent_email_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "builtin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "bulk_send_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "conversation_id" text;--> statement-breakpoint
ALTER TABLE "bulk_sends" ADD CONSTRAINT "bulk_sends_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_sends" ADD CONSTRAINT "bulk_sends_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_taken_over_by_users_id_fk" FOREIGN KEY ("taken_over_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_settings" ADD CONSTRAINT "messaging_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_done_by_users_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_template_versions" ADD CONSTRAINT "message_template_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_sends_due_idx" ON "bulk_sends" USING btree ("scheduled_at") WHERE "bulk_sends"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "conversation_messages_thread_idx" ON "conversation_messages" USING btree ("conversation_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_messages_provider_key" ON "conversation_messages" USING btree ("channel","provider_message_id") WHERE "conversation_messages"."provider_message_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_phone_key" ON "conversations" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "conversations_customer_idx" ON "conversations" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "conversations_last_idx" ON "conversations" USING btree ("last_message_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "segments_name_key" ON "segments" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "staff_tasks_open_idx" ON "staff_tasks" USING btree ("assigned_to","created_at") WHERE "staff_tasks"."status" = 'open';--> statement-breakpoint
CREATE INDEX "staff_tasks_customer_idx" ON "staff_tasks" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "messages_provider_reference_idx" ON "messages" USING btree ("provider","provider_reference");--> statement-breakpoint
CREATE INDEX "messages_bulk_send_idx" ON "messages" USING btree ("bulk_send_id") WHERE "messages"."bulk_send_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_key_check" CHECK ("message_templates"."key" ~ '^[a-z][a-z0-9_]{1,47}$');--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_channel_check" CHECK ("message_templates"."channel" in ('sms', 'whatsapp', 'email'));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_channel_check" CHECK ("messages"."channel" in ('sms', 'whatsapp', 'email'));
--> statement-breakpoint
INSERT INTO "messaging_settings" ("id") VALUES ('default') ON CONFLICT DO NOTHING;
--> statement-breakpoint
ALTER TABLE "bulk_sends" ADD CONSTRAINT "bulk_sends_channel_check" CHECK ("bulk_sends"."channel" in ('sms', 'whatsapp', 'email'));
--> statement-breakpoint
UPDATE "message_templates" SET "builtin" = true;
--> statement-breakpoint
INSERT INTO "message_templates" ("key", "channel", "language", "body", "builtin") VALUES
  ('welcome', 'sms', 'en', 'Welcome {{firstName}}! Your {{device}} on {{contractNumber}} is active. Your first payment of {{amount}} is due on {{dueDate}}. Pay to paybill {{payBill}}, account {{account}}.', true),
  ('reply', 'sms', 'en', '{{text}}', true),
  ('reply', 'whatsapp', 'en', '{{text}}', true);
--> statement-breakpoint
INSERT INTO "message_template_versions" ("key", "channel", "language", "version", "subject", "body", "created_by", "created_at")
  SELECT "key", "channel", "language", "version", "subject", "body", "updated_by", "updated_at" FROM "message_templates";
