-- Substring search over names, phone numbers and ids (PGlite loads it as a contrib extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE SEQUENCE "public"."contract_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."customer_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."journal_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."receipt_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "contract_events" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"type" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"actor_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_installments" (
	"contract_id" text NOT NULL,
	"schedule_version" integer NOT NULL,
	"n" integer NOT NULL,
	"due_date" date NOT NULL,
	"principal_due" bigint NOT NULL,
	"interest_due" bigint NOT NULL,
	"fee_due" bigint NOT NULL,
	"penalty_due" bigint DEFAULT 0 NOT NULL,
	"principal_paid" bigint DEFAULT 0 NOT NULL,
	"interest_paid" bigint DEFAULT 0 NOT NULL,
	"fee_paid" bigint DEFAULT 0 NOT NULL,
	"penalty_paid" bigint DEFAULT 0 NOT NULL,
	"settled_at" date,
	CONSTRAINT "contract_installments_contract_id_schedule_version_n_pk" PRIMARY KEY("contract_id","schedule_version","n"),
	CONSTRAINT "contract_installments_amounts_check" CHECK ("contract_installments"."principal_paid" BETWEEN 0 AND "contract_installments"."principal_due" AND "contract_installments"."interest_paid" BETWEEN 0 AND "contract_installments"."interest_due" AND "contract_installments"."fee_paid" BETWEEN 0 AND "contract_installments"."fee_due" AND "contract_installments"."penalty_paid" BETWEEN 0 AND "contract_installments"."penalty_due")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"customer_id" text NOT NULL,
	"device_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"terms" jsonb NOT NULL,
	"currency" text NOT NULL,
	"cash_price" bigint NOT NULL,
	"deposit" bigint NOT NULL,
	"principal" bigint NOT NULL,
	"apr" numeric(9, 4) NOT NULL,
	"frequency" text NOT NULL,
	"term" integer NOT NULL,
	"interest_method" text NOT NULL,
	"installment_multiple" bigint DEFAULT 0 NOT NULL,
	"service_fee" bigint DEFAULT 0 NOT NULL,
	"installment" bigint NOT NULL,
	"total_interest" bigint NOT NULL,
	"total_payable" bigint NOT NULL,
	"start_date" date NOT NULL,
	"first_due_date" date NOT NULL,
	"last_due_date" date NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"schedule_version" integer DEFAULT 1 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_by" text,
	"submitted_at" timestamp with time zone,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"activated_by" text,
	"activated_at" timestamp with time zone,
	"cancelled_by" text,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"closed_at" timestamp with time zone,
	"dpd" integer DEFAULT 0 NOT NULL,
	"bucket" text DEFAULT 'current' NOT NULL,
	"paid_through_date" date,
	"next_due_date" date,
	"outstanding_principal" bigint DEFAULT 0 NOT NULL,
	"outstanding_total" bigint DEFAULT 0 NOT NULL,
	"total_paid" bigint DEFAULT 0 NOT NULL,
	"credit_balance" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "contracts_status_check" CHECK ("contracts"."status" in ('draft', 'pending_approval', 'active', 'paid_off', 'defaulted', 'written_off', 'returned', 'repossessed', 'cancelled')),
	CONSTRAINT "contracts_amounts_check" CHECK ("contracts"."cash_price" > 0 AND "contracts"."deposit" >= 0 AND "contracts"."principal" > 0 AND "contracts"."principal" = "contracts"."cash_price" - "contracts"."deposit" AND "contracts"."term" BETWEEN 1 AND 3660)
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"other_names" text,
	"phone" text NOT NULL,
	"email" text,
	"national_id" text,
	"date_of_birth" date,
	"gender" text,
	"address" text,
	"region" text,
	"occupation" text,
	"employment" text,
	"monthly_income" bigint,
	"assigned_agent_id" text,
	"consent_sms_at" timestamp with time zone,
	"consent_whatsapp_at" timestamp with time zone,
	"consent_marketing_at" timestamp with time zone,
	"consent_data_processing_at" timestamp with time zone,
	"kyc_status" text DEFAULT 'not_started' NOT NULL,
	"kyc_rejection_reason" text,
	"kyc_reviewed_by" text,
	"kyc_reviewed_at" timestamp with time zone,
	"risk_score" integer,
	"risk_grade" text,
	"risk_decision" text,
	"risk_details" jsonb,
	"search_text" text GENERATED ALWAYS AS (lower(first_name || ' ' || last_name || ' ' || coalesce(other_names, '') || ' ' || phone || ' ' || account_number || ' ' || coalesce(national_id, '') || ' ' || coalesce(email, ''))) STORED NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "customers_kyc_status_check" CHECK ("customers"."kyc_status" in ('not_started', 'pending', 'verified', 'rejected')),
	CONSTRAINT "customers_income_check" CHECK ("customers"."monthly_income" IS NULL OR "customers"."monthly_income" >= 0)
);
--> statement-breakpoint
CREATE TABLE "kyc_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"type" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"uploaded_by" text,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "kyc_documents_type_check" CHECK ("kyc_documents"."type" in ('id_front', 'id_back', 'selfie', 'proof_of_address', 'other')),
	CONSTRAINT "kyc_documents_status_check" CHECK ("kyc_documents"."status" in ('pending', 'verified', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" text PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text,
	"contract_id" text,
	"actor_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_models" (
	"id" text PRIMARY KEY NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"category" text NOT NULL,
	"sku" text,
	"cost_price" bigint,
	"retail_price" bigint NOT NULL,
	"control_kind" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_models_category_check" CHECK ("device_models"."category" in ('smartphone', 'solar_home_system', 'tv', 'laptop', 'tablet', 'other')),
	CONSTRAINT "device_models_control_check" CHECK ("device_models"."control_kind" in ('openpaygo', 'lock_api', 'none')),
	CONSTRAINT "device_models_prices_check" CHECK ("device_models"."retail_price" >= 0 AND ("device_models"."cost_price" IS NULL OR "device_models"."cost_price" >= 0))
);
--> statement-breakpoint
CREATE TABLE "device_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"type" text NOT NULL,
	"value" integer,
	"count" integer NOT NULL,
	"token" text NOT NULL,
	"contract_id" text,
	"issued_by" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_tokens_type_check" CHECK ("device_tokens"."type" in ('ADD_TIME', 'SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'))
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"serial_number" text NOT NULL,
	"imei" text,
	"model_id" text NOT NULL,
	"status" text DEFAULT 'in_stock' NOT NULL,
	"lock_state" text DEFAULT 'unknown' NOT NULL,
	"active_until" date,
	"control_kind" text NOT NULL,
	"openpaygo_secret" text,
	"openpaygo_starting_code" text,
	"openpaygo_count" integer,
	"openpaygo_time_divider" integer,
	"notes" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(serial_number || ' ' || coalesce(imei, ''))) STORED NOT NULL,
	CONSTRAINT "devices_status_check" CHECK ("devices"."status" in ('in_stock', 'reserved', 'assigned', 'returned', 'repossessed', 'written_off', 'lost')),
	CONSTRAINT "devices_lock_state_check" CHECK ("devices"."lock_state" in ('unlocked', 'locked', 'unknown')),
	CONSTRAINT "devices_control_check" CHECK ("devices"."control_kind" in ('openpaygo', 'lock_api', 'none')),
	CONSTRAINT "devices_openpaygo_check" CHECK ("devices"."control_kind" <> 'openpaygo' OR ("devices"."openpaygo_secret" IS NOT NULL AND "devices"."openpaygo_starting_code" IS NOT NULL AND "devices"."openpaygo_count" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"business_date" date NOT NULL,
	"description" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text,
	"currency" text NOT NULL,
	"reversal_of" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" text NOT NULL,
	"account_code" text NOT NULL,
	"debit" bigint DEFAULT 0 NOT NULL,
	"credit" bigint DEFAULT 0 NOT NULL,
	"contract_id" text,
	"customer_id" text,
	"memo" text,
	CONSTRAINT "journal_lines_side_check" CHECK ("journal_lines"."debit" >= 0 AND "journal_lines"."credit" >= 0 AND (("journal_lines"."debit" > 0 AND "journal_lines"."credit" = 0) OR ("journal_lines"."credit" > 0 AND "journal_lines"."debit" = 0)))
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "ledger_accounts_type_check" CHECK ("ledger_accounts"."type" in ('asset', 'liability', 'equity', 'income', 'expense'))
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"contract_id" text NOT NULL,
	"schedule_version" integer NOT NULL,
	"installment_number" integer,
	"component" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "payment_allocations_component_check" CHECK ("payment_allocations"."component" in ('penalty', 'fee', 'interest', 'principal', 'credit')),
	CONSTRAINT "payment_allocations_amount_check" CHECK ("payment_allocations"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"receipt_number" text NOT NULL,
	"contract_id" text,
	"customer_id" text,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"provider" text,
	"reference" text,
	"idempotency_key" text,
	"account_reference" text,
	"received_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"posted_by" text,
	"posted_at" timestamp with time zone,
	"reversed_by" text,
	"reversed_at" timestamp with time zone,
	"reversal_reason" text,
	"credit" bigint DEFAULT 0 NOT NULL,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('deposit', 'cash', 'mobile_money', 'bank_transfer', 'card', 'auto_debit', 'adjustment')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('posted', 'reversed', 'suspense', 'pending', 'failed')),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" > 0 AND "payments"."credit" >= 0 AND "payments"."credit" <= "payments"."amount")
);
--> statement-breakpoint
CREATE TABLE "service_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"family_id" text NOT NULL,
	"version" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"eligible_categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"eligible_model_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"min_deposit_percent" numeric(7, 4) DEFAULT '0' NOT NULL,
	"min_deposit_amount" bigint DEFAULT 0 NOT NULL,
	"frequency" text NOT NULL,
	"allowed_terms" jsonb NOT NULL,
	"apr" numeric(9, 4) NOT NULL,
	"interest_method" text NOT NULL,
	"installment_multiple" bigint DEFAULT 0 NOT NULL,
	"service_fee" bigint DEFAULT 0 NOT NULL,
	"late_fee_kind" text DEFAULT 'none' NOT NULL,
	"late_fee_value" numeric(18, 4) DEFAULT '0' NOT NULL,
	"grace_days" integer DEFAULT 0 NOT NULL,
	"lock_after_days" integer,
	"default_after_days" integer,
	"allocation_strategy" text DEFAULT 'default' NOT NULL,
	"early_settlement_discount_percent" numeric(7, 4) DEFAULT '0' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	CONSTRAINT "service_plans_status_check" CHECK ("service_plans"."status" in ('draft', 'active', 'retired')),
	CONSTRAINT "service_plans_frequency_check" CHECK ("service_plans"."frequency" in ('daily', 'weekly', 'monthly')),
	CONSTRAINT "service_plans_method_check" CHECK ("service_plans"."interest_method" in ('declining', 'flat')),
	CONSTRAINT "service_plans_late_fee_check" CHECK ("service_plans"."late_fee_kind" in ('none', 'flat', 'percent')),
	CONSTRAINT "service_plans_allocation_check" CHECK ("service_plans"."allocation_strategy" in ('default', 'principal_reduction')),
	CONSTRAINT "service_plans_amounts_check" CHECK ("service_plans"."apr" >= 0 AND "service_plans"."min_deposit_amount" >= 0 AND "service_plans"."service_fee" >= 0 AND "service_plans"."installment_multiple" >= 0 AND "service_plans"."grace_days" >= 0)
);
--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "apr_cap" numeric(9, 4);--> statement-breakpoint
ALTER TABLE "contract_events" ADD CONSTRAINT "contract_events_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_events" ADD CONSTRAINT "contract_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_installments" ADD CONSTRAINT "contract_installments_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_plan_id_service_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."service_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_activated_by_users_id_fk" FOREIGN KEY ("activated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_assigned_agent_id_users_id_fk" FOREIGN KEY ("assigned_agent_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_kyc_reviewed_by_users_id_fk" FOREIGN KEY ("kyc_reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_model_id_device_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_account_code_ledger_accounts_code_fk" FOREIGN KEY ("account_code") REFERENCES "public"."ledger_accounts"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_posted_by_users_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_by_users_id_fk" FOREIGN KEY ("reversed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_events_contract_idx" ON "contract_events" USING btree ("contract_id","at");--> statement-breakpoint
CREATE INDEX "contract_installments_due_idx" ON "contract_installments" USING btree ("due_date") WHERE "contract_installments"."settled_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_number_key" ON "contracts" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_open_device_key" ON "contracts" USING btree ("device_id") WHERE "contracts"."status" in ('draft', 'pending_approval', 'active', 'defaulted');--> statement-breakpoint
CREATE INDEX "contracts_customer_idx" ON "contracts" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "contracts_status_idx" ON "contracts" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "contracts_created_idx" ON "contracts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "contracts_dpd_idx" ON "contracts" USING btree ("dpd") WHERE "contracts"."status" in ('active', 'defaulted');--> statement-breakpoint
CREATE INDEX "contracts_number_trgm_idx" ON "contracts" USING gin (lower("number") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "customers_account_number_key" ON "customers" USING btree ("account_number");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_phone_key" ON "customers" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_national_id_key" ON "customers" USING btree ("national_id") WHERE "customers"."national_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "customers_kyc_idx" ON "customers" USING btree ("kyc_status","created_at");--> statement-breakpoint
CREATE INDEX "customers_region_idx" ON "customers" USING btree ("region");--> statement-breakpoint
CREATE INDEX "customers_agent_idx" ON "customers" USING btree ("assigned_agent_id");--> statement-breakpoint
CREATE INDEX "kyc_documents_customer_idx" ON "kyc_documents" USING btree ("customer_id","uploaded_at");--> statement-breakpoint
CREATE INDEX "device_events_device_idx" ON "device_events" USING btree ("device_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_models_sku_key" ON "device_models" USING btree ("sku") WHERE "device_models"."sku" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "device_models_make_model_key" ON "device_models" USING btree (lower("make"),lower("model"));--> statement-breakpoint
CREATE INDEX "device_tokens_device_idx" ON "device_tokens" USING btree ("device_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_tokens_count_key" ON "device_tokens" USING btree ("device_id","count");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_key" ON "devices" USING btree ("serial_number");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_imei_key" ON "devices" USING btree ("imei") WHERE "devices"."imei" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_model_idx" ON "devices" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "devices_status_idx" ON "devices" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_number_key" ON "journal_entries" USING btree ("number");--> statement-breakpoint
CREATE INDEX "journal_entries_date_idx" ON "journal_entries" USING btree ("business_date","id");--> statement-breakpoint
CREATE INDEX "journal_entries_source_idx" ON "journal_entries" USING btree ("source_type","source_id");--> statement-breakpoint
CREATE INDEX "journal_lines_entry_idx" ON "journal_lines" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "journal_lines_account_idx" ON "journal_lines" USING btree ("account_code");--> statement-breakpoint
CREATE INDEX "journal_lines_contract_idx" ON "journal_lines" USING btree ("contract_id") WHERE "journal_lines"."contract_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_allocations_payment_idx" ON "payment_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_contract_idx" ON "payment_allocations" USING btree ("contract_id","installment_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_receipt_key" ON "payments" USING btree ("receipt_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reference_key" ON "payments" USING btree ("method","reference") WHERE "payments"."reference" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key" ON "payments" USING btree ("idempotency_key") WHERE "payments"."idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_contract_idx" ON "payments" USING btree ("contract_id","received_at");--> statement-breakpoint
CREATE INDEX "payments_received_idx" ON "payments" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "service_plans_family_version_key" ON "service_plans" USING btree ("family_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "service_plans_one_active_key" ON "service_plans" USING btree ("family_id") WHERE "service_plans"."status" = 'active';--> statement-breakpoint
CREATE INDEX "service_plans_code_idx" ON "service_plans" USING btree ("code");--> statement-breakpoint
CREATE INDEX "service_plans_status_idx" ON "service_plans" USING btree ("status");
--> statement-breakpoint
-- Double entry is enforced by the database as well as by the posting function: at commit, every
-- journal entry touched in the transaction must have lines, and its debits must equal its credits.
CREATE FUNCTION journal_entry_must_balance() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry text := COALESCE(NEW.entry_id, OLD.entry_id);
  debits numeric;
  credits numeric;
  lines integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM journal_entries WHERE id = entry) THEN
    RETURN NULL;
  END IF;
  SELECT COALESCE(sum(debit), 0), COALESCE(sum(credit), 0), count(*) INTO debits, credits, lines
    FROM journal_lines WHERE entry_id = entry;
  IF lines < 2 OR debits <> credits THEN
    RAISE EXCEPTION 'Journal entry % does not balance: debits %, credits %, lines %', entry, debits, credits, lines
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_lines_balance
  AFTER INSERT OR UPDATE OR DELETE ON journal_lines
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION journal_entry_must_balance();
--> statement-breakpoint
-- The chart of accounts of a device lender.
INSERT INTO ledger_accounts (code, name, type, description) VALUES
  ('1000', 'Cash on hand', 'asset', 'Cash collected by agents and shops'),
  ('1010', 'Bank', 'asset', 'Bank accounts'),
  ('1020', 'Mobile money', 'asset', 'Mobile-money collection accounts'),
  ('1100', 'Loans receivable', 'asset', 'Principal owed by customers on active contracts'),
  ('1110', 'Interest receivable', 'asset', 'Interest due and not yet paid'),
  ('1120', 'Service fees receivable', 'asset', 'Service fees due and not yet paid'),
  ('1130', 'Penalties receivable', 'asset', 'Late fees due and not yet paid'),
  ('1200', 'Device inventory', 'asset', 'Devices in stock, at cost'),
  ('1900', 'Allowance for credit losses', 'asset', 'Contra-asset: expected losses on receivables'),
  ('2000', 'Customer credit balances', 'liability', 'Payments beyond what customers owe'),
  ('2100', 'Unallocated payments (suspense)', 'liability', 'Payments not yet matched to a contract'),
  ('3000', 'Owner''s equity', 'equity', 'Capital contributed'),
  ('3100', 'Retained earnings', 'equity', 'Accumulated profit'),
  ('4000', 'Device sales', 'income', 'Cash price of devices financed'),
  ('4100', 'Interest income', 'income', 'Interest earned on contracts'),
  ('4200', 'Service fee income', 'income', 'Insurance, connectivity and other service fees'),
  ('4300', 'Penalty income', 'income', 'Late fees'),
  ('4400', 'Recoveries', 'income', 'Amounts recovered after write-off'),
  ('5000', 'Cost of devices sold', 'expense', 'Cost price of devices financed'),
  ('5100', 'Credit loss expense', 'expense', 'Write-offs and provisions'),
  ('5200', 'Payment provider fees', 'expense', 'Mobile money and bank charges')
ON CONFLICT (code) DO NOTHING;
