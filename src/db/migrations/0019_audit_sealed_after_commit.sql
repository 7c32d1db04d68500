-- The audit chain is sealed after commit by the app's sealer (decision 023): a row is inserted
-- unsealed (no hash, no chain_seq) with the writer's seal of its content (write_mac, chain_version
-- 3), and the sealer gives it its place and chained hash within a second. Chain order is chain_seq
-- (seal order), no longer id order.
ALTER TABLE "audit_log" ALTER COLUMN "chain_version" SET DEFAULT 3;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "write_mac" text;--> statement-breakpoint
-- Rows already chained with the key keep their chain: their place is their id order. Rows still
-- chained with plain sha256 (chain_version 1) get theirs when sealLegacyAuditRows seals them. The
-- append-only trigger refuses this UPDATE, so it is switched off for it alone.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_append_only";--> statement-breakpoint
UPDATE "audit_log" SET "chain_seq" = numbered.n
FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS n FROM "audit_log" WHERE "chain_version" = 2) AS numbered
WHERE "audit_log"."id" = numbered."id";--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_append_only";--> statement-breakpoint
CREATE INDEX "audit_log_unsealed_idx" ON "audit_log" USING btree ("id") WHERE chain_seq IS NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_chain_seq_key" UNIQUE("chain_seq");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_sealed_whole" CHECK (chain_version = 1
          OR (chain_version = 2 AND hash IS NOT NULL AND chain_seq IS NOT NULL)
          OR (chain_version = 3 AND write_mac IS NOT NULL AND (hash IS NULL) = (chain_seq IS NULL)));--> statement-breakpoint
-- The chain lock held to commit by every audited transaction is gone: the sealer takes its own.
DROP FUNCTION audit_chain_head();--> statement-breakpoint
-- Append-only: no row is changed or removed, except that a row not yet in the chain (chain_seq
-- null) is sealed once: given its link, hash and place, its content and write seal untouched. That
-- is a row written unsealed (version 3, hash null), or a row chained with plain sha256 re-chained
-- with the key (version 1 to 2). A sealed row is never changed again.
CREATE OR REPLACE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nested: the audit_log columns are named only once the table is known to be audit_log.
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'audit_log' THEN
    IF OLD.chain_seq IS NULL AND NEW.chain_seq IS NOT NULL AND NEW.hash IS NOT NULL
       AND ((OLD.chain_version = 3 AND OLD.hash IS NULL AND NEW.chain_version = 3)
            OR (OLD.chain_version = 1 AND NEW.chain_version = 2))
       AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_label, NEW.action, NEW.entity_type, NEW.entity_id,
            NEW.before, NEW.after, NEW.ip, NEW.request_id, NEW.write_mac)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.at, OLD.actor_id, OLD.actor_label, OLD.action, OLD.entity_type, OLD.entity_id,
            OLD.before, OLD.after, OLD.ip, OLD.request_id, OLD.write_mac) THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
