ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
-- The canonical content of an audit row, hashed into the chain. Written once here and used both
-- when rows are written and when the chain is verified, so the two can never disagree. Time is
-- in epoch microseconds so the session time zone cannot change the text.
CREATE FUNCTION audit_payload(
  p_at timestamptz, p_actor_id text, p_actor_label text, p_action text, p_entity_type text,
  p_entity_id text, p_before jsonb, p_after jsonb, p_ip text, p_request_id text
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'at', (extract(epoch FROM p_at) * 1000000)::bigint,
    'actorId', p_actor_id, 'actorLabel', p_actor_label, 'action', p_action,
    'entityType', p_entity_type, 'entityId', p_entity_id,
    'before', p_before, 'after', p_after, 'ip', p_ip, 'requestId', p_request_id
  )::text
$$;
--> statement-breakpoint
CREATE FUNCTION audit_hash(p_prev_hash text, p_payload text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(coalesce(p_prev_hash, '') || '|' || p_payload, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- Chain the rows written before this migration, in id order.
DO $$
DECLARE
  r record;
  previous text := NULL;
  current_hash text;
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    current_hash := audit_hash(previous, audit_payload(r.at, r.actor_id, r.actor_label, r.action, r.entity_type,
      r.entity_id, r.before, r.after, r.ip, r.request_id));
    UPDATE audit_log SET prev_hash = previous, hash = current_hash WHERE id = r.id;
    previous := current_hash;
  END LOOP;
END $$;
