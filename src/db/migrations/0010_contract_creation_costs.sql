DROP INDEX "contract_installments_due_idx";--> statement-breakpoint
-- The instalments' contract check probes each distinct contract once, not once per row: a
-- schedule is one contract's 365 rows (decision 008).
CREATE OR REPLACE FUNCTION contract_installments_need_a_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM (SELECT DISTINCT contract_id FROM written) w
             WHERE NOT EXISTS (SELECT 1 FROM contracts c WHERE c.id = w.contract_id)) THEN
    RAISE EXCEPTION 'An instalment must belong to an existing contract' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Appends a row to the hash-chained audit log in one call (decision 008): takes the chain lock,
-- held to the end of the caller's transaction, then links to the newest row. Each statement of a
-- volatile function reads a fresh snapshot, so the newest row is read after the lock is held,
-- as two separate statements would.
CREATE FUNCTION audit_append(
  p_actor_id text, p_actor_label text, p_action text, p_entity_type text, p_entity_id text,
  p_before jsonb, p_after jsonb, p_ip text, p_request_id text
) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_at timestamptz;
  v_prev text;
BEGIN
  PERFORM pg_advisory_xact_lock(5150212);
  v_at := date_trunc('milliseconds', clock_timestamp());
  SELECT hash INTO v_prev FROM audit_log ORDER BY id DESC LIMIT 1;
  INSERT INTO audit_log (at, actor_id, actor_label, action, entity_type, entity_id, before, after, ip, request_id,
                         prev_hash, hash)
  VALUES (v_at, p_actor_id, p_actor_label, p_action, p_entity_type, p_entity_id, p_before, p_after, p_ip,
          p_request_id, v_prev,
          audit_hash(v_prev, audit_payload(v_at, p_actor_id, p_actor_label, p_action, p_entity_type, p_entity_id,
                                           p_before, p_after, p_ip, p_request_id)));
END $$;
