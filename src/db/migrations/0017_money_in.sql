CREATE TABLE "device_commands" (
	"id" text PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"contract_id" text,
	"kind" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"reason" text NOT NULL,
	"source_type" text,
	"source_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "device_commands_kind_check" CHECK ("device_commands"."kind" in ('lock', 'unlock', 'token', 'release')),
	CONSTRAINT "device_commands_state_check" CHECK ("device_commands"."state" in ('queued', 'sent', 'acknowledged', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "debit_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"mandate_id" text NOT NULL,
	"contract_id" text NOT NULL,
	"due_date" date NOT NULL,
	"amount" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"attempted_at" timestamp with time zone,
	"failure_reason" text,
	"provider_reference" text,
	"payment_id" text,
	CONSTRAINT "debit_attempts_status_check" CHECK ("debit_attempts"."status" in ('scheduled', 'succeeded', 'failed', 'retrying'))
);
--> statement-breakpoint
CREATE TABLE "debit_mandates" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"method" text NOT NULL,
	"account" text NOT NULL,
	"consent_reference" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"paused_reason" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "debit_mandates_method_check" CHECK ("debit_mandates"."method" in ('mobile_money', 'card', 'bank_transfer'))
);
--> statement-breakpoint
CREATE TABLE "import_mappings" (
	"source" text PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mobile_money_pushes" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"phone" text NOT NULL,
	"amount" bigint NOT NULL,
	"provider" text NOT NULL,
	"checkout_request_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"result_code" integer,
	"result_desc" text,
	"payment_id" text,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "mobile_money_pushes_status_check" CHECK ("mobile_money_pushes"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "payment_corrections" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"kind" text NOT NULL,
	"target_contract_id" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	CONSTRAINT "payment_corrections_kind_check" CHECK ("payment_corrections"."kind" in ('reverse', 'transfer')),
	CONSTRAINT "payment_corrections_status_check" CHECK ("payment_corrections"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "payment_import_rows" (
	"import_id" text NOT NULL,
	"row_number" integer NOT NULL,
	"raw" jsonb NOT NULL,
	"contract_id" text,
	"contract_number" text,
	"amount" bigint,
	"reference" text,
	"received_at" timestamp with time zone,
	"error" text,
	"payment_id" text,
	CONSTRAINT "payment_import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "payment_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"file_hash" text NOT NULL,
	"method" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"valid_count" integer DEFAULT 0 NOT NULL,
	"posted_count" integer DEFAULT 0 NOT NULL,
	"posted_amount" bigint DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "payment_imports_status_check" CHECK ("payment_imports"."status" in ('previewed', 'posting', 'posted', 'discarded'))
);
--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "value_date" date;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "transferred_from" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "import_id" text;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "business_date_offset" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "last_closed_date" date;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debit_attempts" ADD CONSTRAINT "debit_attempts_mandate_id_debit_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."debit_mandates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debit_mandates" ADD CONSTRAINT "debit_mandates_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debit_mandates" ADD CONSTRAINT "debit_mandates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_pushes" ADD CONSTRAINT "mobile_money_pushes_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_corrections" ADD CONSTRAINT "payment_corrections_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_corrections" ADD CONSTRAINT "payment_corrections_target_contract_id_contracts_id_fk" FOREIGN KEY ("target_contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_corrections" ADD CONSTRAINT "payment_corrections_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_corrections" ADD CONSTRAINT "payment_corrections_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_import_rows" ADD CONSTRAINT "payment_import_rows_import_id_payment_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."payment_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_imports" ADD CONSTRAINT "payment_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_imports" ADD CONSTRAINT "payment_imports_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_device_idx" ON "device_commands" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_commands_state_idx" ON "device_commands" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "debit_attempts_key" ON "debit_attempts" USING btree ("mandate_id","due_date","attempt");--> statement-breakpoint
CREATE INDEX "debit_attempts_status_idx" ON "debit_attempts" USING btree ("status","scheduled_for");--> statement-breakpoint
CREATE UNIQUE INDEX "debit_mandates_contract_key" ON "debit_mandates" USING btree ("contract_id","method");--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_money_pushes_checkout_key" ON "mobile_money_pushes" USING btree ("checkout_request_id");--> statement-breakpoint
CREATE INDEX "mobile_money_pushes_contract_idx" ON "mobile_money_pushes" USING btree ("contract_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_corrections_open_key" ON "payment_corrections" USING btree ("payment_id") WHERE "payment_corrections"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_corrections_status_idx" ON "payment_corrections" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "payment_imports_created_idx" ON "payment_imports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payments_contract_value_idx" ON "payments" USING btree ("contract_id","value_date","received_at");--> statement-breakpoint
-- Payments recorded before value dates existed count from their day in the organisation's time zone.
UPDATE "payments" SET "value_date" = ("received_at" AT TIME ZONE COALESCE((SELECT "time_zone" FROM "organisation_settings" WHERE "id" = 1), 'UTC'))::date WHERE "value_date" IS NULL;
