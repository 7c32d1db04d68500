CREATE TABLE "message_templates" (
	"key" text NOT NULL,
	"channel" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"body" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_templates_key_channel_language_pk" PRIMARY KEY("key","channel","language"),
	CONSTRAINT "message_templates_key_check" CHECK ("message_templates"."key" in ('reminder_before_due', 'overdue_day_1', 'overdue_day_3', 'overdue_day_7', 'token', 'receipt', 'lock_warning', 'broken_promise')),
	CONSTRAINT "message_templates_channel_check" CHECK ("message_templates"."channel" in ('sms', 'whatsapp'))
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"contract_id" text,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"template_key" text NOT NULL,
	"template_version" integer NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"skipped_reason" text,
	"failure_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"provider" text,
	"provider_reference" text,
	"source_type" text,
	"source_id" text,
	"dedupe_key" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_status_check" CHECK ("messages"."status" in ('queued', 'sent', 'delivered', 'failed', 'skipped')),
	CONSTRAINT "messages_channel_check" CHECK ("messages"."channel" in ('sms', 'whatsapp')),
	CONSTRAINT "messages_template_check" CHECK ("messages"."template_key" in ('reminder_before_due', 'overdue_day_1', 'overdue_day_3', 'overdue_day_7', 'token', 'receipt', 'lock_warning', 'broken_promise'))
);
--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_dedupe_key" ON "messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("next_attempt_at","id") WHERE "messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "messages_contract_idx" ON "messages" USING btree ("contract_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_customer_idx" ON "messages" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at","id");--> statement-breakpoint
-- The outbox's renderer as SQL, for the close of business's set-based reminders (decision 027):
-- the same rule as src/domain/message-template.ts (held to it by tests/integration/messages.test.ts):
-- each {{name}} is replaced by the variable's text in one pass (a value is never read as a
-- template), and a variable the template needs but was not given is an error, never a blank.
CREATE OR REPLACE FUNCTION render_message(template text, vars jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  pieces text[] := regexp_split_to_array(template, '\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}');
  names text[] := ARRAY(SELECT m[1] FROM regexp_matches(template, '\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}', 'g') AS m);
  result text := pieces[1];
BEGIN
  FOR i IN 1 .. coalesce(array_length(names, 1), 0) LOOP
    IF vars->>names[i] IS NULL THEN
      RAISE EXCEPTION 'The message template needs the variable "%"', names[i] USING ERRCODE = '22023';
    END IF;
    result := result || (vars->>names[i]) || pieces[i + 1];
  END LOOP;
  RETURN result;
END $$;
--> statement-breakpoint
-- The built-in templates (editable; an edit raises the version).
INSERT INTO "message_templates" ("key", "channel", "language", "body") VALUES
  ('reminder_before_due', 'sms', 'en', 'Hello {{firstName}}, your payment of {{amount}} for {{contractNumber}} is due on {{dueDate}}. Thank you for paying on time.'),
  ('overdue_day_1', 'sms', 'en', 'Hello {{firstName}}, your payment for {{contractNumber}} was due yesterday. {{amountOverdue}} is now overdue. Please pay today.'),
  ('overdue_day_3', 'sms', 'en', 'Hello {{firstName}}, {{amountOverdue}} on {{contractNumber}} is 3 days overdue. Please pay now to keep your device working.'),
  ('overdue_day_7', 'sms', 'en', 'Hello {{firstName}}, {{amountOverdue}} on {{contractNumber}} is 7 days overdue. Please pay now or call us to agree a plan.'),
  ('token', 'sms', 'en', 'Hello {{firstName}}, your code for {{contractNumber}} is {{token}} ({{tokenDescription}}). Enter it on your device.'),
  ('receipt', 'sms', 'en', 'Hello {{firstName}}, we received {{amount}} for {{contractNumber}} (ref {{reference}}). Balance: {{balance}}. Thank you.'),
  ('lock_warning', 'sms', 'en', 'Hello {{firstName}}, {{contractNumber}} is {{daysOverdue}} days overdue ({{amountOverdue}}). Your device will be locked tomorrow unless you pay today.'),
  ('broken_promise', 'sms', 'en', 'Hello {{firstName}}, we did not receive the {{amount}} you promised to pay for {{contractNumber}} on {{promiseDate}}. Please pay today or call us.');
