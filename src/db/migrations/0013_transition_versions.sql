ALTER TABLE "kyc_documents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;