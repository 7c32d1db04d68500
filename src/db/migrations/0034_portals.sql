CREATE TABLE "demo_images" (
	"id" text PRIMARY KEY NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"content" jsonb NOT NULL,
	"note" text,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone,
	CONSTRAINT "demo_versions_status_check" CHECK ("demo_versions"."status" in ('draft', 'published', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "guest_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer_id" text,
	"investor_code_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text,
	CONSTRAINT "guest_sessions_kind_check" CHECK ("guest_sessions"."kind" in ('customer', 'investor')),
	CONSTRAINT "guest_sessions_subject_check" CHECK (("guest_sessions"."kind" = 'customer' AND "guest_sessions"."customer_id" IS NOT NULL AND "guest_sessions"."investor_code_id" IS NULL)
       OR ("guest_sessions"."kind" = 'investor' AND "guest_sessions"."investor_code_id" IS NOT NULL AND "guest_sessions"."customer_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "investor_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"code_hash" text NOT NULL,
	"hint" text NOT NULL,
	"scope_kind" text DEFAULT 'portfolio' NOT NULL,
	"scope_tag" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"use_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "investor_codes_scope_kind_check" CHECK ("investor_codes"."scope_kind" in ('portfolio', 'tag')),
	CONSTRAINT "investor_codes_scope_check" CHECK (("investor_codes"."scope_kind" = 'tag') = ("investor_codes"."scope_tag" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "portal_otps" (
	"id" text PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"customer_id" text,
	"code_hash" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "portal_otps_attempts_check" CHECK ("portal_otps"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "demo_images" ADD CONSTRAINT "demo_images_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_versions" ADD CONSTRAINT "demo_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_versions" ADD CONSTRAINT "demo_versions_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_sessions" ADD CONSTRAINT "guest_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_sessions" ADD CONSTRAINT "guest_sessions_investor_code_id_investor_codes_id_fk" FOREIGN KEY ("investor_code_id") REFERENCES "public"."investor_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "investor_codes" ADD CONSTRAINT "investor_codes_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "investor_codes" ADD CONSTRAINT "investor_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_otps" ADD CONSTRAINT "portal_otps_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "demo_versions_version_key" ON "demo_versions" USING btree ("version");--> statement-breakpoint
CREATE UNIQUE INDEX "demo_versions_one_draft" ON "demo_versions" USING btree ("status") WHERE "demo_versions"."status" = 'draft';--> statement-breakpoint
CREATE UNIQUE INDEX "demo_versions_one_published" ON "demo_versions" USING btree ("status") WHERE "demo_versions"."status" = 'published';--> statement-breakpoint
CREATE INDEX "guest_sessions_customer_idx" ON "guest_sessions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "guest_sessions_investor_code_idx" ON "guest_sessions" USING btree ("investor_code_id");--> statement-breakpoint
CREATE INDEX "guest_sessions_expires_idx" ON "guest_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "investor_codes_code_hash_key" ON "investor_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "investor_codes_created_idx" ON "investor_codes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "portal_otps_phone_idx" ON "portal_otps" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "portal_otps_ip_idx" ON "portal_otps" USING btree ("ip","created_at");