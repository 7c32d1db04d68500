CREATE TABLE "audit_checkpoints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"rows" bigint NOT NULL,
	"last_id" bigint NOT NULL,
	"last_hash" text NOT NULL,
	"mac" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_version" smallint DEFAULT 2 NOT NULL;--> statement-breakpoint
-- Rows chained before this migration used plain sha256 (0002): anyone with SQL could recompute it.
-- They are sealed with the app's key at the next start (sealLegacyAuditRows, src/server/audit.ts).
UPDATE "audit_log" SET "chain_version" = 1;
--> statement-breakpoint
-- The keyed hash is computed by the app, which alone holds the key (decision 016).
DROP FUNCTION audit_append(text, text, text, text, text, jsonb, jsonb, text, text);
--> statement-breakpoint
-- The chain's head for the next append: takes the chain lock (held to the end of the caller's
-- transaction, so chain order is commit order), then reads the newest row (a volatile function's
-- statement takes a fresh snapshot, after the lock) and the row's time in epoch microseconds.
CREATE FUNCTION audit_chain_head() RETURNS TABLE (prev_hash text, prev_version smallint, at_us bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(5150212);
  RETURN QUERY
    SELECT (SELECT l.hash FROM audit_log l ORDER BY l.id DESC LIMIT 1),
           (SELECT l.chain_version FROM audit_log l ORDER BY l.id DESC LIMIT 1),
           (extract(epoch FROM date_trunc('milliseconds', clock_timestamp())) * 1000000)::bigint;
END $$;
--> statement-breakpoint
-- Append-only: no row is changed or removed, except that a row chained with plain sha256 may be
-- sealed once with the keyed hash, its content untouched.
CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nested: the audit_log columns are named only once the table is known to be audit_log.
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'audit_log' THEN
    IF OLD.chain_version = 1 AND NEW.chain_version = 2
       AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_label, NEW.action, NEW.entity_type, NEW.entity_id,
            NEW.before, NEW.after, NEW.ip, NEW.request_id)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.at, OLD.actor_id, OLD.actor_label, OLD.action, OLD.entity_type, OLD.entity_id,
            OLD.before, OLD.after, OLD.ip, OLD.request_id) THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON "audit_checkpoints"
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON "audit_checkpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
