CREATE TABLE "repossessions" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"device_id" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"outstanding_at_request" jsonb NOT NULL,
	"requested_by" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"recovered_by" text,
	"recovered_at" timestamp with time zone,
	"condition" text,
	"condition_notes" text,
	"recovery_value" bigint,
	"balance_treatment" text,
	"written_off" jsonb,
	"journal_entry_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "repossessions_status_check" CHECK ("repossessions"."status" in ('requested', 'approved', 'rejected', 'recovered', 'cancelled')),
	CONSTRAINT "repossessions_condition_check" CHECK ("repossessions"."condition" IS NULL OR "repossessions"."condition" in ('good', 'damaged', 'parts_missing', 'unusable')),
	CONSTRAINT "repossessions_balance_check" CHECK ("repossessions"."balance_treatment" IS NULL OR "repossessions"."balance_treatment" in ('write_off', 'receivable')),
	CONSTRAINT "repossessions_value_check" CHECK ("repossessions"."recovery_value" IS NULL OR "repossessions"."recovery_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "write_off_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"outstanding" jsonb NOT NULL,
	"written_off" jsonb,
	"journal_entry_id" text,
	"requested_by" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "write_off_requests_status_check" CHECK ("write_off_requests"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "condition" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "condition_notes" text;--> statement-breakpoint
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_recovered_by_users_id_fk" FOREIGN KEY ("recovered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repossessions" ADD CONSTRAINT "repossessions_journal_entry_id_journal_entries_id_fk" FOREIGN KEY ("journal_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "write_off_requests" ADD CONSTRAINT "write_off_requests_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "write_off_requests" ADD CONSTRAINT "write_off_requests_journal_entry_id_journal_entries_id_fk" FOREIGN KEY ("journal_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "write_off_requests" ADD CONSTRAINT "write_off_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "write_off_requests" ADD CONSTRAINT "write_off_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "repossessions_open_key" ON "repossessions" USING btree ("contract_id") WHERE "repossessions"."status" in ('requested', 'approved');--> statement-breakpoint
CREATE INDEX "repossessions_status_idx" ON "repossessions" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "repossessions_requested_idx" ON "repossessions" USING btree ("requested_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "write_off_requests_open_key" ON "write_off_requests" USING btree ("contract_id") WHERE "write_off_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "write_off_requests_status_idx" ON "write_off_requests" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "write_off_requests_requested_idx" ON "write_off_requests" USING btree ("requested_at","id");--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_condition_check" CHECK ("devices"."condition" IS NULL OR "devices"."condition" in ('good', 'damaged', 'parts_missing', 'unusable'));--> statement-breakpoint
-- Balances given up on (a write-off, or what a repossessed device's value did not cover) are
-- this expense, credited out of the receivables by component.
INSERT INTO ledger_accounts (code, name, type, description) VALUES
  ('5400', 'Credit losses written off', 'expense', 'Contract balances written off, by component, after any recovery')
ON CONFLICT (code) DO NOTHING;
