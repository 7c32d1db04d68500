CREATE TABLE "interest_accruals" (
	"contract_id" text NOT NULL,
	"business_date" date NOT NULL,
	"amount" bigint NOT NULL,
	"earned" bigint NOT NULL,
	CONSTRAINT "interest_accruals_contract_id_business_date_pk" PRIMARY KEY("contract_id","business_date")
);
--> statement-breakpoint
CREATE TABLE "late_fee_charges" (
	"contract_id" text NOT NULL,
	"schedule_version" integer NOT NULL,
	"n" integer NOT NULL,
	"business_date" date NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "late_fee_charges_contract_id_schedule_version_n_pk" PRIMARY KEY("contract_id","schedule_version","n"),
	CONSTRAINT "late_fee_charges_amount_check" CHECK ("late_fee_charges"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "eod_runs" (
	"business_date" date PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	CONSTRAINT "eod_runs_status_check" CHECK ("eod_runs"."status" in ('running', 'completed', 'failed')),
	CONSTRAINT "eod_runs_trigger_check" CHECK ("eod_runs"."trigger" in ('schedule', 'demand', 'date_move'))
);
--> statement-breakpoint
CREATE TABLE "eod_steps" (
	"business_date" date NOT NULL,
	"step" text NOT NULL,
	"status" text NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"error" text,
	"note" text,
	CONSTRAINT "eod_steps_business_date_step_pk" PRIMARY KEY("business_date","step"),
	CONSTRAINT "eod_steps_step_check" CHECK ("eod_steps"."step" in ('delinquency', 'late_fees', 'device_locks', 'defaults', 'promises', 'reminders', 'interest_accrual', 'snapshot')),
	CONSTRAINT "eod_steps_status_check" CHECK ("eod_steps"."status" in ('completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "portfolio_snapshots" (
	"business_date" date PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"active_count" integer NOT NULL,
	"defaulted_count" integer NOT NULL,
	"locked_count" integer,
	"overdue_count" integer NOT NULL,
	"due_today_count" integer NOT NULL,
	"outstanding_principal" bigint NOT NULL,
	"outstanding_total" bigint NOT NULL,
	"overdue_amount" bigint NOT NULL,
	"par1_amount" bigint NOT NULL,
	"par30_amount" bigint NOT NULL,
	"par90_amount" bigint NOT NULL,
	"par1_ratio" numeric(9, 6) NOT NULL,
	"par30_ratio" numeric(9, 6) NOT NULL,
	"par90_ratio" numeric(9, 6) NOT NULL,
	"due_amount" bigint NOT NULL,
	"due_month_to_date" bigint NOT NULL,
	"collected_amount" bigint NOT NULL,
	"collected_month_to_date" bigint NOT NULL,
	"disbursed_count" integer NOT NULL,
	"disbursed_amount" bigint NOT NULL,
	"buckets" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "portfolio_snapshots_counts_check" CHECK ("portfolio_snapshots"."active_count" >= 0 AND "portfolio_snapshots"."defaulted_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "close_of_business_time" text DEFAULT '23:30' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "interest_accrual_from" date;--> statement-breakpoint
ALTER TABLE "interest_accruals" ADD CONSTRAINT "interest_accruals_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_fee_charges" ADD CONSTRAINT "late_fee_charges_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eod_runs" ADD CONSTRAINT "eod_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eod_steps" ADD CONSTRAINT "eod_steps_business_date_eod_runs_business_date_fk" FOREIGN KEY ("business_date") REFERENCES "public"."eod_runs"("business_date") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "late_fee_charges_date_idx" ON "late_fee_charges" USING btree ("business_date");