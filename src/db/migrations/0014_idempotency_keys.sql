CREATE TABLE "idempotency_keys" (
	"operation" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"resource_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_operation_key_pk" PRIMARY KEY("operation","key")
);
--> statement-breakpoint
DROP INDEX "payments_idempotency_key";