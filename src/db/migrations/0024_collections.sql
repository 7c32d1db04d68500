CREATE TABLE "collection_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"kind" text NOT NULL,
	"outcome" text,
	"note" text,
	"promise_id" text,
	"device_command_id" text,
	"actor_id" text,
	"at" timestamp with time zone NOT NULL,
	"business_date" date NOT NULL,
	CONSTRAINT "collection_actions_kind_check" CHECK ("collection_actions"."kind" in ('call', 'message', 'visit', 'promise', 'dispute', 'escalate_lock', 'escalate_repossession', 'escalate_write_off')),
	CONSTRAINT "collection_actions_outcome_check" CHECK ("collection_actions"."outcome" in ('reached', 'no_answer', 'wrong_number', 'refused_to_pay', 'will_pay', 'not_home', 'other'))
);
--> statement-breakpoint
CREATE TABLE "collection_cases" (
	"contract_id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"region" text,
	"agent_id" text,
	"bucket" text NOT NULL,
	"dpd" integer NOT NULL,
	"amount_overdue" bigint NOT NULL,
	"regular_payment" bigint NOT NULL,
	"currency" text NOT NULL,
	"due_today" boolean DEFAULT false NOT NULL,
	"risk_grade" text,
	"broken_promises" integer DEFAULT 0 NOT NULL,
	"last_contact_at" timestamp with time zone,
	"days_since_contact" integer,
	"promise_state" text,
	"score" integer NOT NULL,
	"dpd_points" integer NOT NULL,
	"amount_points" integer NOT NULL,
	"risk_points" integer NOT NULL,
	"promise_points" integer NOT NULL,
	"contact_points" integer NOT NULL,
	"in_queue" boolean NOT NULL,
	"scored_on" date NOT NULL,
	"assigned_bucket" text,
	"collector_id" text,
	"assigned_by" text,
	"assigned_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "collection_cases_promise_state_check" CHECK ("collection_cases"."promise_state" in ('pending', 'kept', 'partly_kept', 'broken'))
);
--> statement-breakpoint
CREATE TABLE "collection_promises" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"collector_id" text,
	"promised_date" date NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"amount_paid" bigint DEFAULT 0 NOT NULL,
	"taken_on" date NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"taken_by" text,
	"checked_on" date,
	CONSTRAINT "collection_promises_state_check" CHECK ("collection_promises"."state" in ('pending', 'kept', 'partly_kept', 'broken')),
	CONSTRAINT "collection_promises_amounts_check" CHECK ("collection_promises"."amount" > 0 AND "collection_promises"."amount_paid" >= 0)
);
--> statement-breakpoint
CREATE TABLE "collector_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"regions" text[] DEFAULT '{}'::text[] NOT NULL,
	"max_open_cases" integer DEFAULT 50 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_actions" ADD CONSTRAINT "collection_actions_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_actions" ADD CONSTRAINT "collection_actions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_collector_id_users_id_fk" FOREIGN KEY ("collector_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_promises" ADD CONSTRAINT "collection_promises_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_promises" ADD CONSTRAINT "collection_promises_collector_id_users_id_fk" FOREIGN KEY ("collector_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_promises" ADD CONSTRAINT "collection_promises_taken_by_users_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collector_settings" ADD CONSTRAINT "collector_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collector_settings" ADD CONSTRAINT "collector_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_actions_contract_idx" ON "collection_actions" USING btree ("contract_id","at");--> statement-breakpoint
CREATE INDEX "collection_actions_customer_idx" ON "collection_actions" USING btree ("customer_id","at");--> statement-breakpoint
CREATE INDEX "collection_actions_actor_idx" ON "collection_actions" USING btree ("actor_id","business_date");--> statement-breakpoint
CREATE INDEX "collection_cases_queue_idx" ON "collection_cases" USING btree ("score","contract_id") WHERE "collection_cases"."in_queue";--> statement-breakpoint
CREATE INDEX "collection_cases_collector_idx" ON "collection_cases" USING btree ("collector_id","score","contract_id") WHERE "collection_cases"."in_queue";--> statement-breakpoint
CREATE INDEX "collection_cases_bucket_idx" ON "collection_cases" USING btree ("bucket","score","contract_id") WHERE "collection_cases"."in_queue";--> statement-breakpoint
CREATE INDEX "collection_cases_dpd_idx" ON "collection_cases" USING btree ("dpd","contract_id") WHERE "collection_cases"."in_queue";--> statement-breakpoint
CREATE INDEX "collection_cases_amount_idx" ON "collection_cases" USING btree ("amount_overdue","contract_id") WHERE "collection_cases"."in_queue";--> statement-breakpoint
CREATE INDEX "collection_cases_customer_idx" ON "collection_cases" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "collection_promises_due_idx" ON "collection_promises" USING btree ("promised_date") WHERE "collection_promises"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "collection_promises_contract_idx" ON "collection_promises" USING btree ("contract_id","taken_at");--> statement-breakpoint
CREATE INDEX "collection_promises_collector_idx" ON "collection_promises" USING btree ("collector_id","promised_date");--> statement-breakpoint
CREATE INDEX "collection_promises_state_idx" ON "collection_promises" USING btree ("state","promised_date","id");--> statement-breakpoint
CREATE INDEX "collection_promises_date_idx" ON "collection_promises" USING btree ("promised_date","id");